import { Badge, Button, Card, Divider, Group, Stack, Text, Title } from '@mantine/core';
import { formatINR, StockIndicator } from '@qm/ui';
import { IconEdit, IconShieldCheck, IconShoppingCart, IconTrash } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import type { Product } from '../api';
import { ManufacturerDetails } from './ManufacturerDetails';

export const TYPE_COLORS: Record<Product['type'], string> = {
  Weapon: 'red',
  Vehicle: 'blue',
  Equipment: 'teal',
  Ammunition: 'orange',
  Other: 'gray',
};

export interface ProductCardProps {
  product: Product;
  /** The signed-in user is this product's manufacturer: Edit and Delete instead of Purchase. */
  isOwner: boolean;
  /** False for administrators, who oversee the market and buy nothing: no Purchase button. */
  canPurchase: boolean;
  onEdit: (product: Product) => void;
  onDelete: (product: Product) => void;
}

export function ProductCard({ product, isOwner, canPurchase, onEdit, onDelete }: ProductCardProps) {
  const titleId = `product-${product.id}-name`;
  return (
    <Card
      withBorder
      radius="md"
      padding="lg"
      h="100%"
      component="article"
      aria-labelledby={titleId}
      data-testid="product-card"
      data-product-id={product.id}
    >
      {/* A flex column whose last blocks (stock and price, the button) are pushed to the bottom, so that
          the cards of a row line up their prices and buttons whatever their titles and badges. */}
      <Stack gap="sm" h="100%">
        <Badge color={TYPE_COLORS[product.type]} variant="light" style={{ alignSelf: 'flex-start' }}>
          {product.type}
        </Badge>
        <Title order={2} size="h4" id={titleId} style={{ overflowWrap: 'anywhere' }}>
          {product.name}
        </Title>

        <Text size="sm" c={product.description ? undefined : 'dimmed'} lineClamp={3} mih="4.5em">
          {product.description || 'No description provided.'}
        </Text>

        <Group gap={6}>
          <IconShieldCheck size={16} color="var(--mantine-color-green-6)" aria-hidden />
          <Text size="sm" fw={500}>
            Military Grade
          </Text>
        </Group>

        <Divider />
        <ManufacturerDetails manufacturerId={product.manufacturerId} />
        <Divider />

        {/* Stock and price always on two lines: "Selling Quickly! Only 3 left" beside a five-digit price
            does not fit one line of a card, and a row that wraps in some cards only would misalign them. */}
        <Stack gap={4} mt="auto">
          <StockIndicator
            stock={product.stock}
            data-testid="stock-indicator"
            style={{ alignSelf: 'flex-start' }}
            styles={{ label: { overflow: 'visible' } }}
          />
          <Text fw={700} size="xl" data-testid="product-price">
            {formatINR(product.price)}
          </Text>
        </Stack>

        {isOwner ? (
          <Group grow gap="sm">
            <Button variant="light" leftSection={<IconEdit size={16} />} onClick={() => onEdit(product)}>
              Edit
            </Button>
            <Button
              variant="light"
              color="red"
              leftSection={<IconTrash size={16} />}
              onClick={() => onDelete(product)}
            >
              Delete
            </Button>
          </Group>
        ) : !canPurchase ? null : product.stock < 1 ? (
          <Button disabled fullWidth>
            Out of Stock
          </Button>
        ) : (
          <Button
            component={Link}
            to={`/market/payment/${product.id}`}
            fullWidth
            leftSection={<IconShoppingCart size={16} />}
          >
            Purchase
          </Button>
        )}
      </Stack>
    </Card>
  );
}
