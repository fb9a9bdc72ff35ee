import { Button, Card, Center, Container, Group, Text, ThemeIcon, Title } from '@mantine/core';
import { IconAlertCircle } from '@tabler/icons-react';
import { Link } from 'react-router-dom';

export default function NotFoundPage() {
  return (
    <Container size="sm" py={80}>
      <Center>
        <Card withBorder radius="md" padding="xl" w="100%">
          <Group gap="sm" wrap="nowrap">
            <ThemeIcon color="red" variant="light" size="lg">
              <IconAlertCircle size={22} />
            </ThemeIcon>
            <Title order={1} size="h2">
              404 Page Not Found
            </Title>
          </Group>
          <Text mt="md" c="dimmed">
            Did you forget to add the page to the router?
          </Text>
          <Button component={Link} to="/" variant="light" mt="lg" w="fit-content">
            Back to home
          </Button>
        </Card>
      </Center>
    </Container>
  );
}
