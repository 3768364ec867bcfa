import { Badge, Stack, SimpleGrid, Tabs, Textarea, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { usePermissions } from '../auth/permissions';
import { channelName } from '../dashboards/names';
import { useI18n } from '../i18n/i18n';
import { ChannelFields } from './channel-fields';
import { ErrorList, PreviewOutput } from './preview-output';
import { SamplePicker, type Sample } from './sample-picker';
import {
  CHANNELS,
  channelTemplate,
  errorCountByChannel,
  localesOf,
  parseVariables,
  previewErrors,
  previewRequest,
  type Channel,
  type FieldError,
  type MailingTemplates,
  type Variant,
} from './templates';
import { useDebounced, useTemplatePreview } from './templates.queries';
import { TestSend } from './test-send';
import { VariantBar } from './variant-bar';

export type { Channel, FieldError, MailingTemplates } from './templates';
export { templateErrorsOf } from './templates';

export interface TemplatesEditorProps {
  /** The shop's id: the preview, the test send and the customer picker are the shop's. */
  readonly shopId: string;
  /** The templates object as the API holds it (a transactional mailing's, a chain step's `send`, a bulk mailing's). */
  readonly value: MailingTemplates;
  readonly onChange: (next: MailingTemplates) => void;
  /** The channels whose tabs are offered; every channel a template can hold by default. */
  readonly channels?: readonly Channel[];
  /**
   * A refused save's errors under the templates, each at its field (`email.html`,
   * `locales.de.sms.body`): `templateErrorsOf(error)` makes them from the save's ApiError.
   */
  readonly errors?: readonly FieldError[];
}

/** The wait after the last keystroke before the preview renders again. */
const PREVIEW_DEBOUNCE_MS = 400;
const NO_ERRORS: readonly FieldError[] = [];

/**
 * The template editor (docs/admin-ui-messaging-studio.md): a CodeMirror editor with Liquid
 * highlighting per field, the server's live preview beside it (POST …/templates/preview,
 * debounced), sample data from a real customer or the sample profile, locale variants, the
 * preview's and the save's errors at their line, and a test send (POST …/templates/test).
 * It holds only the editing state (tab, variant, sample); the templates are the caller's.
 */
export function TemplatesEditor({ shopId, value, onChange, channels = CHANNELS, errors = NO_ERRORS }: TemplatesEditorProps) {
  const { t } = useI18n();
  const can = usePermissions();
  const readOnly = !can.write;
  const locales = localesOf(value);
  const [chosenVariant, setVariant] = useState<Variant>(null);
  const variant = chosenVariant !== null && locales.includes(chosenVariant) ? chosenVariant : null;
  const [chosenChannel, setChannel] = useState<Channel | null>(null);
  const channel: Channel =
    chosenChannel !== null && channels.includes(chosenChannel)
      ? chosenChannel
      : (channels.find((c) => channelTemplate(value, null, c) !== undefined) ?? channels[0] ?? 'email');
  const [sample, setSample] = useState<Sample | null>(null);
  const [variablesText, setVariablesText] = useState('');
  const variables = useMemo(() => parseVariables(variablesText), [variablesText]);

  const request = useMemo(
    () => previewRequest(value, channel, variant, sample?.id ?? null, variables ?? {}),
    [value, channel, variant, sample, variables],
  );
  const settled = useDebounced(request, PREVIEW_DEBOUNCE_MS);
  const preview = useTemplatePreview(shopId, settled);
  const shownErrors = useMemo(
    () => [...errors, ...previewErrors(preview.data?.errors ?? []).filter((e) => !errors.some((s) => s.name === e.name))],
    [errors, preview.data],
  );
  const counts = errorCountByChannel(shownErrors, variant);

  return (
    <Stack gap="md" data-testid="templates-editor">
      <VariantBar value={value} onChange={onChange} variant={variant} setVariant={setVariant} locales={locales} readOnly={readOnly} />
      <Tabs value={channel} onChange={(c) => c !== null && setChannel(c as Channel)} keepMounted={false}>
        <Tabs.List>
          {channels.map((c) => (
            <Tabs.Tab
              key={c}
              value={c}
              rightSection={
                counts[c] ? (
                  <Badge color="red" size="sm" aria-label={t('templates.errorCount', { count: counts[c] })}>
                    {counts[c]}
                  </Badge>
                ) : undefined
              }
            >
              {channelName(t, c)}
            </Tabs.Tab>
          ))}
        </Tabs.List>
      </Tabs>
      <SimpleGrid cols={{ base: 1, lg: 2 }} spacing="lg">
        <ChannelFields value={value} onChange={onChange} variant={variant} channel={channel} errors={shownErrors} readOnly={readOnly} />
        <Stack gap="sm">
          <Title order={3} size="h4">
            {t('templates.preview.title')}
          </Title>
          <SamplePicker shopId={shopId} sample={sample} onPick={setSample} />
          <Textarea
            label={t('templates.variables.label')}
            description={t('templates.variables.hint')}
            value={variablesText}
            onChange={(e) => setVariablesText(e.currentTarget.value)}
            error={variables === undefined ? t('templates.variables.invalid') : undefined}
            autosize
            minRows={1}
            maxRows={6}
            styles={{ input: { fontFamily: 'monospace' } }}
          />
          <PreviewOutput channel={channel} request={request} preview={preview} variant={variant} />
          <ErrorList errors={shownErrors} />
          {can.write && (
            <TestSend shopId={shopId} value={value} channel={channel} profileId={sample?.id ?? null} variables={variables ?? {}} />
          )}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}
