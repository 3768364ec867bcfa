import { Button, Code, CopyButton, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { useI18n } from '../i18n/i18n';

/** A secret or link the server gives only once (an API token, an invitation link): shown with a copy button. */
export function CopyOnce({ label, value, testId }: { readonly label: string; readonly value: string; readonly testId: string }) {
  const { t } = useI18n();
  return (
    <Paper withBorder p="sm" role="status" bg="var(--mantine-color-green-0)">
      <Stack gap="xs">
        <Title order={3} size="h5">
          {label}
        </Title>
        <Text size="sm">{t('people.shownOnce')}</Text>
        <Code block data-testid={testId}>
          {value}
        </Code>
        <Group>
          <CopyButton value={value}>
            {({ copied, copy }) => (
              <Button size="xs" variant="default" onClick={copy}>
                {copied ? t('integration.copied') : t('integration.copy')}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Paper>
  );
}
