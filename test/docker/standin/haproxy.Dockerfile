# A stand-in for the official haproxy image where Docker Hub cannot be reached: Debian's
# HAProxy on the stand-in base, reading the official image's configuration path, in the
# foreground, as the unprivileged haproxy user. Built by test/docker/standin/build.sh.
ARG BASE_IMAGE
FROM ${BASE_IMAGE}
RUN apt-get update \
  && apt-get install -y --no-install-recommends haproxy \
  && rm -rf /var/lib/apt/lists/* \
  && mkdir -p /usr/local/etc/haproxy
USER haproxy
STOPSIGNAL SIGUSR1
CMD ["haproxy", "-W", "-db", "-f", "/usr/local/etc/haproxy/haproxy.cfg"]
