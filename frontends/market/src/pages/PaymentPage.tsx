import { Button, Card, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft } from '@tabler/icons-react';
import { Link, useParams } from 'react-router-dom';

export function PaymentPage() {
  const { productId } = useParams<{ productId: string }>();
  return (
    <Stack gap="lg" maw={640}>
      <Button
        component={Link}
        to="/market"
        variant="subtle"
        leftSection={<IconArrowLeft size={16} />}
        w="fit-content"
      >
        Back to Market
      </Button>
      <Card withBorder radius="md" padding="lg">
        <Title order={2}>Complete Your Purchase</Title>
        <Text c="dimmed" mt="xs">
          Product #{productId}
        </Text>
      </Card>
    </Stack>
  );
}
