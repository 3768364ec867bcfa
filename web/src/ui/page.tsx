import { Paper, Stack, Text, Title } from '@mantine/core';
import { useEffect, type ReactNode } from 'react';

/** A screen's heading, its one-line purpose, and the document title that names it. */
export function Page({ title, hint, children }: { readonly title: string; readonly hint?: string; readonly children: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · Patron`;
  }, [title]);
  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        {title}
      </Title>
      {hint && <Text c="dimmed">{hint}</Text>}
      {children}
    </Stack>
  );
}

/** A titled part of a screen: a landmark named by its heading. */
export function Section({
  title,
  gap = 'sm',
  children,
}: {
  readonly title: string;
  readonly gap?: 'xs' | 'sm';
  readonly children: ReactNode;
}) {
  return (
    <Paper withBorder p="md" component="section" aria-label={title}>
      <Stack gap={gap}>
        <Title order={2} size="h4">
          {title}
        </Title>
        {children}
      </Stack>
    </Paper>
  );
}

/** A headline figure as text: its name, its value large, and an optional note under it. */
export function StatCard({
  label,
  value,
  note,
  component = 'div',
}: {
  readonly label: string;
  readonly value: string;
  readonly note?: string;
  /** `li` where the figures are a list. */
  readonly component?: 'div' | 'li';
}) {
  return (
    <Paper withBorder p="md" component={component}>
      <Text size="sm" c="gray.7">
        {label}
      </Text>
      <Text size="xl" fw={700}>
        {value}
      </Text>
      {note && (
        <Text size="xs" c="gray.7">
          {note}
        </Text>
      )}
    </Paper>
  );
}
