import { Alert, Anchor, Button, Group, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { usePermissions } from '../auth/permissions';
import { Funnel } from '../dashboards/funnel';
import type { MessageKey } from '../i18n/en';
import { formatDateTime } from '../i18n/format';
import { useI18n } from '../i18n/i18n';
import { useShop } from '../shops/shop.queries';
import { formFailure } from '../ui/form-errors';
import { Page } from '../ui/page';
import { ConfirmDelete, Failure, Loading } from '../ui/states';
import { listPath, mailingPath } from './mailing-path';
import { codeProblem, MAILING_FORM_FIELDS, mailingBody, templatesOfMailing } from './mailing-form';
import { useDeleteMailing, useMailing, useSaveMailing, type Mailing } from './mailings.queries';
import { templateErrorsOf, TemplatesEditor } from './templates-editor';
import type { MailingTemplates } from './templates';

/** A new transactional mailing: its code, name and templates; saved, it opens its own page. */
export function NewMailingScreen() {
  const { t } = useI18n();
  const shopId = useParams().shopId ?? '';
  return (
    <Page title={t('transactional.newTitle')} hint={t('transactional.newHint')}>
      <BackLink shopId={shopId} />
      <MailingForm shopId={shopId} mailing={undefined} />
    </Page>
  );
}

/** One mailing: its templates in the editor, its funnel, and its delete. */
export function MailingScreen() {
  const { t, language } = useI18n();
  const params = useParams();
  const shopId = params.shopId ?? '';
  const code = params.code ?? '';
  const mailing = useMailing(shopId, code);
  const shop = useShop(shopId);
  const can = usePermissions();
  const navigate = useNavigate();
  const remove = useDeleteMailing(shopId, code);
  if (mailing.isPending) return <Loading />;
  if (mailing.isError) return <Failure error={mailing.error} onRetry={() => void mailing.refetch()} />;
  const m = mailing.data;
  return (
    <Page title={t('transactional.mailingTitle', { name: m.name ?? m.code })}>
      <BackLink shopId={shopId} />
      <Group justify="space-between">
        <Text size="sm" c="gray.7">
          {t('transactional.meta', {
            code: m.code,
            id: m.id,
            updated: shop.data ? formatDateTime(m.updated_at, shop.data, language) : '',
          })}
        </Text>
        {can.write && (
          <Group gap="xs">
            <ConfirmDelete
              label={t('transactional.delete')}
              ariaLabel={t('transactional.deleteOf', { code: m.code })}
              confirm={t('transactional.deleteConfirm', { code: m.code })}
              mutation={{
                ...remove,
                mutate: () => remove.mutate(undefined, { onSuccess: () => void navigate(listPath(shopId)) }),
              }}
            />
          </Group>
        )}
      </Group>
      {/* What the user types stays theirs after a save (the server's copy is what they saved). */}
      <MailingForm key={m.code} shopId={shopId} mailing={m} />
      <Paper withBorder p="md">
        <Funnel shopId={shopId} type="transactional" id={m.id} title={t('transactional.funnel')} headingOrder={2} />
      </Paper>
    </Page>
  );
}

function BackLink({ shopId }: { readonly shopId: string }) {
  const { t } = useI18n();
  return (
    <Anchor component={Link} to={listPath(shopId)} size="sm">
      {t('transactional.back')}
    </Anchor>
  );
}

function MailingForm({ shopId, mailing }: { readonly shopId: string; readonly mailing: Mailing | undefined }) {
  const { t } = useI18n();
  const can = usePermissions();
  const navigate = useNavigate();
  const save = useSaveMailing(shopId);
  const [code, setCode] = useState(mailing?.code ?? '');
  const [name, setName] = useState(mailing?.name ?? '');
  const [templates, setTemplates] = useState<MailingTemplates>(() =>
    mailing ? templatesOfMailing(mailing) : { email: { subject: '', html: '' } },
  );
  const [codeError, setCodeError] = useState<string | null>(null);
  const [saved, setSaved] = useState(false);
  const failure = formFailure(save.error, MAILING_FORM_FIELDS, t);
  const templateErrors = templateErrorsOf(save.error);
  const creating = mailing === undefined;

  const submit = () => {
    if (creating) {
      const problem = codeProblem(code);
      if (problem !== null) {
        setCodeError(t(`transactional.code.${problem}` as MessageKey));
        return;
      }
    }
    setSaved(false);
    save.mutate(
      { code: creating ? code : mailing.code, body: mailingBody(name, templates) },
      {
        onSuccess: (m) => {
          setSaved(true);
          if (creating) void navigate(mailingPath(shopId, m.code));
        },
      },
    );
  };

  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        submit();
      }}
      noValidate
    >
      <Stack gap="md">
        <Title order={2} size="h3">
          {t('transactional.form')}
        </Title>
        <Group align="flex-start" grow>
          {creating && (
            <TextInput
              label={t('transactional.code')}
              description={t('transactional.codeHint')}
              required
              value={code}
              maxLength={255}
              onChange={(e) => {
                setCode(e.currentTarget.value);
                setCodeError(null);
              }}
              error={codeError ?? (failure.field?.name === 'code' ? failure.field.message : undefined)}
            />
          )}
          <TextInput
            label={t('transactional.name')}
            description={t('transactional.nameHint')}
            value={name}
            maxLength={255}
            readOnly={!can.write}
            onChange={(e) => setName(e.currentTarget.value)}
            error={failure.field?.name === 'name' ? failure.field.message : undefined}
          />
        </Group>
        <TemplatesEditor shopId={shopId} value={templates} onChange={setTemplates} errors={templateErrors} />
        {failure.form !== undefined && templateErrors.length === 0 && (
          <Alert color="red" role="alert" title={failure.form}>
            {null}
          </Alert>
        )}
        {templateErrors.length > 0 && (
          <Alert color="red" role="alert" title={t('transactional.refused')}>
            {templateErrors[0]?.message}
          </Alert>
        )}
        {can.write && (
          <Group>
            <Button type="submit" loading={save.isPending}>
              {creating ? t('transactional.create') : t('transactional.save')}
            </Button>
            {saved && !save.isPending && (
              <Text size="sm" role="status">
                {t('transactional.saved')}
              </Text>
            )}
          </Group>
        )}
      </Stack>
    </form>
  );
}
