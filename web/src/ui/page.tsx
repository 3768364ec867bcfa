import { Stack, Text, Title } from '@mantine/core';
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
