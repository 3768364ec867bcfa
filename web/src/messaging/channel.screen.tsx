import { Alert, Anchor, Button, Group, Paper, Select, SimpleGrid, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { Link, useParams } from 'react-router';
import { ApiError } from '../api/client';
import { usePermissions } from '../auth/permissions';
import { formatDateTime, type ShopLocale } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import type { MessageKey } from '../i18n/en';
import { Page } from '../ui/page';
import { describeFailure, Empty, Failure, Loading } from '../ui/states';
import {
  useChannels,
  useChannelSettings,
  useChannelVendors,
  useGenerateVapidKeys,
  useSaveChannel,
  useShopLocale,
  useTestSend,
  type ChannelOverview,
} from './messaging.queries';
import { SettingField } from './setting-field';
import { buildSettings, fieldOfSettingsError, fieldsOf, initialValues, parseStored, putBody, type StoredChannel } from './settings-form';

/** One channel: its health, its provider's settings form (owners and admins write), VAPID keys for web push, and a test send. */
export function ChannelScreen() {
  const { t } = useI18n();
  const { shopId = '', channel = '' } = useParams();
  const shop = useShopLocale(shopId);
  const channels = useChannels(shopId);
  const overview = channels.data?.channels.find((c) => c.channel === channel);
  const title = overview ? t(`messaging.channel.${overview.channel}`) : channel;
  return (
    <Page title={t('messaging.channel.title', { channel: title })} hint={t('messaging.channel.hint')}>
      <Anchor component={Link} to={`/shops/${shopId}/channels`} size="sm">
        {t('messaging.channel.back')}
      </Anchor>
      {channels.isPending && <Loading />}
      {channels.isError && <Failure error={channels.error} onRetry={() => void channels.refetch()} />}
      {channels.data && !overview && <Empty>{t('error.notFound')}</Empty>}
      {overview && (
        <>
          <Health overview={overview} shop={shop} />
          <Settings shopId={shopId} overview={overview} />
          <TestSend shopId={shopId} overview={overview} />
        </>
      )}
    </Page>
  );
}

function Health({ overview, shop }: { readonly overview: ChannelOverview; readonly shop: ShopLocale | undefined }) {
  const { t, language } = useI18n();
  const at = (iso: string) => (shop ? formatDateTime(iso, shop, language) : iso);
  const error = overview.health.last_error;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="channel-health">
      <Title order={2} size="h4" id="channel-health">
        {t('messaging.health.title')}
      </Title>
      <Text size="sm" c="dimmed">
        {t('messaging.health.since', { since: at(overview.health.since) })}
      </Text>
      <SimpleGrid cols={3} mt="sm" maw={480}>
        <Figure label={t('messaging.health.sent')} value={overview.health.sent} />
        <Figure label={t('messaging.health.failed')} value={overview.health.failed} />
        <Figure label={t('messaging.health.bounced')} value={overview.health.bounced} />
      </SimpleGrid>
      <Text size="sm" mt="sm">
        {error
          ? t('messaging.health.lastErrorAt', { at: at(error.at), vendor: error.vendor, message: error.message })
          : t('messaging.health.noError')}
      </Text>
    </Paper>
  );
}

function Figure({ label, value }: { readonly label: string; readonly value: number }) {
  return (
    <div>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text fw={700} size="xl">
        {value}
      </Text>
    </div>
  );
}

function Settings({ shopId, overview }: { readonly shopId: string; readonly overview: ChannelOverview }) {
  const { t } = useI18n();
  const can = usePermissions();
  const vendors = useChannelVendors(shopId, overview.channel);
  const settings = useChannelSettings(shopId, overview.channel, overview.configured);
  // Held here, not in the form: a save starts the form again from what the server answered, and its outcome must outlive that.
  const save = useSaveChannel(shopId, overview.channel);
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="channel-settings">
      <Title order={2} size="h4" id="channel-settings">
        {t('messaging.settings.title')}
      </Title>
      {!can.manageChannels && (
        <Alert color="gray" mt="sm">
          {t('messaging.settings.readOnly')}
        </Alert>
      )}
      {(vendors.isPending || settings.isPending) && <Loading />}
      {vendors.isError && <Failure error={vendors.error} onRetry={() => void vendors.refetch()} />}
      {settings.isError && <Failure error={settings.error} onRetry={() => void settings.refetch()} />}
      {vendors.data && settings.data !== undefined && (
        <>
          {overview.channel === 'web_push' && !overview.configured && can.manageChannels && <VapidKeys shopId={shopId} />}
          <SettingsForm
            // A save or a new key pair starts the form again from what the server holds.
            key={JSON.stringify(settings.data)}
            overview={overview}
            save={save}
            vendors={vendors.data.vendors}
            stored={parseStored(settings.data ?? undefined)}
            readOnly={!can.manageChannels}
          />
        </>
      )}
    </Paper>
  );
}

interface VendorSchema {
  readonly vendor: string;
  readonly secret_fields: string[];
  readonly settings_schema: Record<string, unknown>;
}

function SettingsForm({
  overview,
  save,
  vendors,
  stored,
  readOnly,
}: {
  readonly overview: ChannelOverview;
  readonly save: ReturnType<typeof useSaveChannel>;
  readonly vendors: readonly VendorSchema[];
  readonly stored: StoredChannel;
  readonly readOnly: boolean;
}) {
  const { t } = useI18n();
  const storedNames = Object.keys(stored.vendors);
  const [vendor, setVendor] = useState<string>(storedNames[0] ?? vendors[0]?.vendor ?? '');
  const schema = vendors.find((v) => v.vendor === vendor);
  const secretsOf = overview.vendors.find((v) => v.vendor === vendor)?.secrets ?? {};
  const fields = schema ? fieldsOf(schema.settings_schema, [...schema.secret_fields, ...Object.keys(secretsOf)]) : [];
  const [values, setValues] = useState(() => initialValues(fields, stored.vendors[vendor]));
  const [rate, setRate] = useState(stored.ratePerSecond === null ? '' : String(stored.ratePerSecond));
  const [local, setLocal] = useState<{ field: string; message: string } | null>(null);

  const pickVendor = (name: string | null) => {
    if (!name) return;
    const next = vendors.find((v) => v.vendor === name);
    setVendor(name);
    setValues(next ? initialValues(fieldsOf(next.settings_schema, next.secret_fields), stored.vendors[name]) : {});
    setLocal(null);
    save.reset();
  };

  const submit = (event: FormEvent) => {
    event.preventDefault();
    setLocal(null);
    const built = buildSettings(fields, values, stored.vendors[vendor]);
    if (!built.ok) {
      return setLocal({
        field: built.field,
        message: t(built.problem === 'json' ? 'messaging.settings.badJson' : 'messaging.settings.badNumber'),
      });
    }
    let ratePerSecond: number | null = null;
    if (rate.trim() !== '') {
      ratePerSecond = Number(rate.trim());
      if (!Number.isInteger(ratePerSecond)) return setLocal({ field: 'rate_per_second', message: t('messaging.settings.badNumber') });
    }
    save.mutate(putBody(vendor, built.settings, stored, ratePerSecond));
  };

  const serverField = save.error instanceof ApiError && save.error.status === 422 ? fieldOfSettingsError(save.error.message) : undefined;
  const known = serverField !== undefined && (serverField === 'rate_per_second' || fields.some((f) => f.name === serverField));
  const errorAt = (name: string) =>
    local?.field === name ? local.message : known && serverField === name ? (save.error as ApiError).message : undefined;
  const formError = save.isError && !known ? describeFailure(save.error, t) : undefined;

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="sm" mt="sm" maw={640}>
        {formError && (
          <Alert color="red" role="alert">
            {formError}
          </Alert>
        )}
        {save.isSuccess && (
          <Alert color="green" role="status">
            {t('messaging.settings.saved')}
          </Alert>
        )}
        {vendors.length > 1 && (
          <Select
            label={t('messaging.settings.vendor')}
            description={storedNames.length > 1 ? t('messaging.settings.vendorsBoth', { vendors: storedNames.join(', ') }) : undefined}
            data={vendors.map((v) => v.vendor)}
            value={vendor}
            onChange={pickVendor}
            allowDeselect={false}
            disabled={readOnly}
          />
        )}
        {fields.map((field) => (
          <SettingField
            key={`${vendor}.${field.name}`}
            field={field}
            value={values[field.name] ?? (field.kind === 'boolean' ? false : '')}
            secretState={secretsOf[field.name]}
            storedMask={stored.vendors[vendor]?.[field.name]}
            error={errorAt(field.name)}
            readOnly={readOnly}
            onChange={(value) => setValues((old) => ({ ...old, [field.name]: value }))}
          />
        ))}
        <TextInput
          label={t('messaging.settings.rate')}
          description={t('messaging.settings.rateHint')}
          inputMode="numeric"
          maxLength={6}
          w={240}
          value={rate}
          onChange={(e) => setRate(e.currentTarget.value)}
          error={errorAt('rate_per_second')}
          readOnly={readOnly}
        />
        {!readOnly && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {t('messaging.settings.save')}
            </Button>
          </Group>
        )}
      </Stack>
    </form>
  );
}

/** web_push without settings: a new VAPID key pair made by the server, with the contact the push services may write to. */
function VapidKeys({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  const [subject, setSubject] = useState('');
  const generate = useGenerateVapidKeys(shopId);
  const fieldError = generate.error instanceof ApiError && generate.error.status === 422 ? generate.error.message : undefined;
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        generate.mutate(subject.trim());
      }}
      noValidate
    >
      <Stack gap="xs" mt="sm" maw={640}>
        <Text size="sm">{t('messaging.vapid.hint')}</Text>
        {generate.isError && !fieldError && (
          <Alert color="red" role="alert">
            {describeFailure(generate.error, t)}
          </Alert>
        )}
        <Group align="flex-end">
          <TextInput
            label={t('messaging.vapid.subject')}
            placeholder="mailto:ops@example.org"
            maxLength={320}
            value={subject}
            onChange={(e) => setSubject(e.currentTarget.value)}
            error={fieldError}
            w={320}
          />
          <Button type="submit" variant="default" loading={generate.isPending}>
            {t('messaging.vapid.generate')}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

const TEST_HINTS: Readonly<Record<ChannelOverview['channel'], MessageKey>> = {
  email: 'messaging.test.to.email',
  sms: 'messaging.test.to.phone',
  whatsapp: 'messaging.test.to.phone',
  telegram: 'messaging.test.to.telegram',
  max: 'messaging.test.to.max',
  mobile_push: 'messaging.test.to.mobile_push',
  web_push: 'messaging.test.to.web_push',
  wallet: 'messaging.test.to.wallet',
};

/** A short fixed message through the channel's real vendor, to an address the user types; the outcome in words. */
function TestSend({ shopId, overview }: { readonly shopId: string; readonly overview: ChannelOverview }) {
  const { t } = useI18n();
  const can = usePermissions();
  const [to, setTo] = useState('');
  const send = useTestSend(shopId, overview.channel);
  const fieldError = send.error instanceof ApiError && send.error.status === 422 ? send.error.message : undefined;
  const result = send.data;
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="channel-test">
      <Title order={2} size="h4" id="channel-test">
        {t('messaging.test.title')}
      </Title>
      {!overview.configured ? (
        <Text size="sm" mt="sm">
          {t('messaging.test.notConfigured')}
        </Text>
      ) : (
        <form
          onSubmit={(e) => {
            e.preventDefault();
            send.mutate(to.trim());
          }}
          noValidate
        >
          <Stack gap="xs" mt="sm" maw={640}>
            <Group align="flex-start">
              <TextInput
                label={t('messaging.test.to')}
                description={t(TEST_HINTS[overview.channel])}
                maxLength={4096}
                value={to}
                onChange={(e) => setTo(e.currentTarget.value)}
                error={fieldError}
                disabled={!can.write}
                w={360}
              />
              <Button type="submit" mt={44} variant="default" loading={send.isPending} disabled={!can.write || to.trim() === ''}>
                {t('messaging.test.send')}
              </Button>
            </Group>
            {send.isError && !fieldError && (
              <Alert color="red" role="alert">
                {send.error instanceof ApiError && send.error.status === 429 ? t('messaging.test.tooMany') : describeFailure(send.error, t)}
              </Alert>
            )}
            {result && (
              <Alert color={result.status === 'sent' ? 'green' : 'red'} role={result.status === 'sent' ? 'status' : 'alert'}>
                {result.status === 'sent' ? t('messaging.test.sent') : t('messaging.test.failed', { error: result.error ?? '' })}{' '}
                <Anchor component={Link} to={`/shops/${shopId}/messages/${encodeURIComponent(result.code)}`}>
                  {t('messaging.test.inLog')}
                </Anchor>
              </Alert>
            )}
          </Stack>
        </form>
      )}
    </Paper>
  );
}
