import { Badge, Button, Group, Stack, Text, Title } from '@mantine/core';
import { lazy, Suspense, useId } from 'react';
import { channelName } from '../dashboards/names';
import type { MessageKey } from '../i18n/en';
import { useI18n, type Translate } from '../i18n/i18n';
import { Loading } from '../ui/states';
import {
  addChannel,
  CHANNEL_FIELDS,
  channelTemplate,
  emailFormat,
  errorsAt,
  removeChannel,
  setField,
  type Channel,
  type FieldError,
  type MailingTemplates,
  type Variant,
} from './templates';

// CodeMirror comes in its own chunk, loaded when an editor first shows.
const CodeEditor = lazy(async () => ({ default: (await import('./code-editor')).CodeEditor }));

/** One channel's fields in a variant, each in a code editor with its errors at their line; or the offer to add the template. */
export function ChannelFields({
  value,
  onChange,
  variant,
  channel,
  errors,
  readOnly,
}: {
  readonly value: MailingTemplates;
  readonly onChange: (next: MailingTemplates) => void;
  readonly variant: Variant;
  readonly channel: Channel;
  readonly errors: readonly FieldError[];
  readonly readOnly: boolean;
}) {
  const { t } = useI18n();
  const id = useId();
  const fields = channelTemplate(value, variant, channel);
  const name = channelName(t, channel);
  if (fields === undefined) {
    const inherited = variant !== null && channelTemplate(value, null, channel) !== undefined;
    return (
      <Stack gap="sm" align="flex-start">
        <Text>
          {variant === null
            ? t('templates.channel.none', { channel: name })
            : inherited
              ? t('templates.channel.inherited', { channel: name, tag: variant })
              : t('templates.channel.noneAnywhere', { channel: name })}
        </Text>
        {!readOnly && (
          <Button variant="default" onClick={() => onChange(addChannel(value, variant, channel))}>
            {inherited ? t('templates.channel.override', { tag: variant ?? '' }) : t('templates.channel.add', { channel: name })}
          </Button>
        )}
      </Stack>
    );
  }
  return (
    <Stack gap="sm">
      <Group justify="space-between">
        <Title order={3} size="h4">
          {variant === null
            ? t('templates.channel.title', { channel: name })
            : t('templates.channel.titleIn', { channel: name, tag: variant })}
        </Title>
        {!readOnly && (
          <Button
            variant="subtle"
            color="red"
            size="xs"
            onClick={() => {
              if (window.confirm(t('templates.channel.removeConfirm', { channel: name }))) onChange(removeChannel(value, variant, channel));
            }}
          >
            {t('templates.channel.remove', { channel: name })}
          </Button>
        )}
      </Group>
      {CHANNEL_FIELDS[channel].map((field) => {
        const source = fields[field.name] ?? '';
        const fieldErrors = errorsAt(errors, variant, channel, field.name);
        const errorId = `${id}-${field.name}-errors`;
        const label = t(`templates.field.${field.name}` as MessageKey);
        return (
          <Stack key={`${variant ?? ''}/${channel}/${field.name}`} gap={4}>
            <Group gap="xs">
              <Text size="sm" fw={500} component="div">
                {label}
                {!field.required && (
                  <Text span size="sm" c="gray.7">
                    {' '}
                    {t('templates.field.optional')}
                  </Text>
                )}
              </Text>
              {channel === 'email' && field.name === 'html' && (
                <Badge variant="light" color={emailFormat(source) === 'mjml' ? 'grape' : 'blue'}>
                  {t(emailFormat(source) === 'mjml' ? 'templates.format.mjml' : 'templates.format.html')}
                </Badge>
              )}
            </Group>
            {channel === 'email' && field.name === 'html' && (
              <Text size="xs" c="gray.7">
                {t('templates.format.hint')}
              </Text>
            )}
            <Suspense fallback={<Loading />}>
              <CodeEditor
                value={source}
                onChange={(next) => onChange(setField(value, variant, channel, field.name, next))}
                label={label}
                describedBy={fieldErrors.length > 0 ? errorId : undefined}
                errors={fieldErrors}
                readOnly={readOnly}
                short={!(channel === 'email' && field.name !== 'subject') && field.name !== 'body' && field.name !== 'text'}
              />
            </Suspense>
            {fieldErrors.length > 0 && (
              <Text id={errorId} size="sm" c="red.9" role="alert">
                {fieldErrors.map((e) => lineMessage(t, e)).join(' ')}
              </Text>
            )}
          </Stack>
        );
      })}
    </Stack>
  );
}

/** An error in words, with its line when the server names one. */
export function lineMessage(t: Translate, e: FieldError): string {
  return e.line === undefined ? e.message : t('templates.errors.atLine', { line: e.line, message: e.message });
}
