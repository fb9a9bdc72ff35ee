import { Container, List, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export interface InfoSection {
  heading: string;
  paragraphs?: string[];
  items?: ReactNode[];
}

export interface InfoPageProps {
  title: string;
  intro?: ReactNode;
  sections?: InfoSection[];
  children?: ReactNode;
  /** e.g. "Last updated" line for policies. */
  note?: string;
}

/** Layout for the static informational pages: title, intro, sections of paragraphs and lists. */
export function InfoPage({ title, intro, sections = [], children, note }: InfoPageProps) {
  return (
    <Container size="md" py="xl">
      <Stack gap="xs" mb="xl">
        <Title order={1}>{title}</Title>
        {note && (
          <Text size="sm" c="dimmed">
            {note}
          </Text>
        )}
        {intro && (
          <Text size="lg" c="dimmed">
            {intro}
          </Text>
        )}
      </Stack>
      <Stack gap="xl">
        {sections.map((section) => (
          <Stack key={section.heading} gap="xs" component="section">
            <Title order={2} size="h3">
              {section.heading}
            </Title>
            {section.paragraphs?.map((paragraph) => (
              <Text key={paragraph}>{paragraph}</Text>
            ))}
            {section.items && (
              <List spacing={4}>
                {section.items.map((item, index) => (
                  <List.Item key={index}>{item}</List.Item>
                ))}
              </List>
            )}
          </Stack>
        ))}
        {children}
      </Stack>
    </Container>
  );
}
