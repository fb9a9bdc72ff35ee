import { Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import { toast, errorMessage } from '@qm/ui';
import { useMutation } from '@tanstack/react-query';
import { deleteProduct, useInvalidateProducts, type Product } from '../api';

/** Returns a handler that asks for confirmation, then deletes the product and refreshes the market. */
export function useConfirmDeleteProduct(): (product: Product) => void {
  const invalidateProducts = useInvalidateProducts();
  const remove = useMutation({
    mutationFn: (product: Product) => deleteProduct(product.id),
    onSuccess: () => {
      toast({
        color: 'green',
        title: 'Product deleted',
        message: 'The product has been removed from the marketplace.',
      });
      void invalidateProducts();
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Failed to delete product',
        message: errorMessage(error, 'Please try again.'),
      });
    },
  });

  return (product: Product) =>
    modals.openConfirmModal({
      title: 'Delete product',
      centered: true,
      children: (
        <Text size="sm">
          Delete <strong>{product.name}</strong>? It will be removed from the marketplace. This cannot be
          undone.
        </Text>
      ),
      labels: { confirm: 'Delete', cancel: 'Cancel' },
      confirmProps: { color: 'red' },
      onConfirm: () => remove.mutate(product),
    });
}
