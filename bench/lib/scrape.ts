/** The server's /metrics text now, or undefined when it has none (the bare app) or does not answer. */
export async function scrapeMetrics(baseUrl: string): Promise<string | undefined> {
  const response = await fetch(`${baseUrl}/metrics`, { signal: AbortSignal.timeout(5_000) }).catch(() => undefined);
  return response?.ok ? response.text() : undefined;
}
