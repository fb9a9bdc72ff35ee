import { Button, Collapse, Group, Modal, Paper, Stack, Textarea, TextInput } from '@mantine/core';
import { useForm } from '@mantine/form';
import { PriceInput, StockInput } from './ProductFields';
import { PRODUCT_LIMITS, ProductEditFields } from '@qm/contracts/rest';
import { ApiError, toast, errorMessage } from '@qm/ui';
import { IconSparkles } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { useState } from 'react';
import { updateProduct, useInvalidateProducts, type Product } from '../api';
import { type EditValues, productChanges } from '../productChanges';
import { AiDescriptionGenerator } from './AiDescriptionGenerator';

export interface EditProductDialogProps {
  /** The product being edited; null keeps the dialog closed. */
  product: Product | null;
  onClose: () => void;
}

/** Edit Product dialog (docs/product.md §2): name, price, stock, description with the optional AI generator panel. */
export function EditProductDialog({ product, onClose }: EditProductDialogProps) {
  return (
    <Modal opened={product !== null} onClose={onClose} title="Edit Product" size="lg" centered>
      {/* Mounted per product, so the form starts from that product's current values. */}
      {product && <EditProductForm key={product.id} product={product} onClose={onClose} />}
    </Modal>
  );
}

function EditProductForm({ product, onClose }: { product: Product; onClose: () => void }) {
  const invalidateProducts = useInvalidateProducts();
  const [showAi, setShowAi] = useState(false);
  const form = useForm<EditValues>({
    mode: 'controlled',
    initialValues: {
      name: product.name,
      price: product.price,
      stock: product.stock,
      description: product.description,
    },
    validate: zod4Resolver(ProductEditFields),
  });

  const save = useMutation({
    mutationFn: async (values: EditValues) => {
      const changes = productChanges(product, values);
      // Nothing changed: nothing to send (and no version to conflict with).
      return changes ? updateProduct(product.id, changes) : product;
    },
    onSuccess: () => {
      toast({
        color: 'green',
        title: 'Product updated',
        message: 'Your product has been updated successfully.',
      });
      void invalidateProducts();
      onClose();
    },
    onError: (error) => {
      // Changed by someone else (409): the lists refetch, so the dialog reopens on the current product.
      if (error instanceof ApiError && error.status === 409) void invalidateProducts();
      toast({
        color: 'red',
        title: 'Failed to update product',
        message: errorMessage(error, 'Please try again.'),
      });
    },
  });

  return (
    <form onSubmit={form.onSubmit((values) => save.mutate(values))} noValidate>
      <Stack gap="md">
        <TextInput
          label="Product Name"
          required
          maxLength={PRODUCT_LIMITS.nameMaxChars}
          data-autofocus
          {...form.getInputProps('name')}
        />
        <Group grow align="flex-start">
          <PriceInput {...form.getInputProps('price')} />
          <StockInput label="Stock Quantity" {...form.getInputProps('stock')} />
        </Group>
        <Stack gap={6}>
          <Textarea
            label="Description"
            autosize
            minRows={4}
            maxRows={10}
            maxLength={PRODUCT_LIMITS.descriptionMaxChars}
            {...form.getInputProps('description')}
          />
          <Group>
            <Button
              variant="subtle"
              size="compact-sm"
              leftSection={<IconSparkles size={14} />}
              onClick={() => setShowAi((open) => !open)}
              aria-expanded={showAi}
              aria-controls="edit-product-ai-panel"
            >
              {showAi ? 'Hide AI Generator' : 'Use AI Generator'}
            </Button>
          </Group>
          <Collapse in={showAi} id="edit-product-ai-panel">
            {showAi && (
              <Paper withBorder radius="md" p="md">
                <AiDescriptionGenerator
                  name={form.values.name}
                  type={product.type}
                  onApply={(description) => {
                    form.setFieldValue('description', description);
                    setShowAi(false);
                  }}
                />
              </Paper>
            )}
          </Collapse>
        </Stack>
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose} disabled={save.isPending}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save Changes
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
