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
          {/* The product reference's line (§1) stays; the next one tells a visitor what happened and where to go. */}
          <Text mt="md" c="dimmed">
            Did you forget to add the page to the router?
          </Text>
          <Text mt="xs">
            The page you are looking for does not exist or has moved. Check the address, start again from the
            home page, or tell us what you were looking for.
          </Text>
          <Group mt="lg" gap="sm">
            <Button component={Link} to="/" variant="light">
              Back to home
            </Button>
            <Button component={Link} to="/contact" variant="default">
              Contact us
            </Button>
          </Group>
        </Card>
      </Center>
    </Container>
  );
}
