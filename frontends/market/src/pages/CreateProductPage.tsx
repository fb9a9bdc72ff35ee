import {
  Box,
  Button,
  Card,
  Group,
  Modal,
  Select,
  SimpleGrid,
  Stack,
  Textarea,
  TextInput,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useDisclosure } from '@mantine/hooks';
import { PriceInput, StockInput } from '../components/ProductFields';
import { CreateProductBody, PRODUCT_LIMITS, PRODUCT_TYPES, type ProductTypeName } from '@qm/contracts/rest';
import { PageHeader, toast, errorMessage } from '@qm/ui';
import { IconSparkles } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { zod4Resolver } from 'mantine-form-zod-resolver';
import { Link, useNavigate } from 'react-router-dom';
import { createProduct, priceToApi, useInvalidateProducts } from '../api';
import { AiDescriptionGenerator } from '../components/AiDescriptionGenerator';

type CreateValues = {
  name: string;
  type: ProductTypeName;
  price: number | string;
  description: string;
  stock: number | string;
};

/** /create-product (Manufacturers only; the shell's guard sends anyone else to /wallet). */
export function CreateProductPage() {
  const navigate = useNavigate();
  const invalidateProducts = useInvalidateProducts();
  const [aiOpened, ai] = useDisclosure(false);
  const form = useForm<CreateValues>({
    mode: 'controlled',
    initialValues: { name: '', type: 'Equipment', price: '', description: '', stock: 0 },
    validate: zod4Resolver(CreateProductBody),
  });

  const create = useMutation({
    mutationFn: (values: CreateValues) => {
      const body = CreateProductBody.parse(values);
      // docs/product.md §7: price as a string, stock as a number.
      return createProduct({ ...body, price: priceToApi(body.price), stock: body.stock });
    },
    onSuccess: async () => {
      toast(
        {
          color: 'green',
          title: 'Product created',
          message: 'Your product has been listed in the marketplace.',
        },
        { nextPage: true },
      );
      await invalidateProducts();
      void navigate('/market');
    },
    onError: (error) => {
      toast({
        color: 'red',
        title: 'Failed to create product',
        message: errorMessage(error, 'Please try again.'),
      });
    },
  });

  return (
    <>
      {/* Centred with the header above it, not left-aligned with the wide page's empty right side. */}
      <Box maw={760} mx="auto">
        <PageHeader title="Create New Product" subtitle="List a product in the marketplace." />
        <Card withBorder radius="md" padding="lg">
          <form onSubmit={form.onSubmit((values) => create.mutate(values))} noValidate>
            <Stack gap="md">
              <TextInput
                label="Product Name"
                placeholder="e.g. Tactical Night Vision Goggles"
                required
                maxLength={PRODUCT_LIMITS.nameMaxChars}
                {...form.getInputProps('name')}
              />
              <SimpleGrid cols={{ base: 1, sm: 3 }} spacing="md">
                <Select
                  label="Type"
                  required
                  data={PRODUCT_TYPES}
                  allowDeselect={false}
                  {...form.getInputProps('type')}
                />
                <PriceInput placeholder="0.00" {...form.getInputProps('price')} />
                <StockInput label="Stock" {...form.getInputProps('stock')} />
              </SimpleGrid>
              <Stack gap={6}>
                <Textarea
                  label="Description"
                  placeholder="Describe the product, its specifications and intended use"
                  autosize
                  minRows={5}
                  maxRows={14}
                  maxLength={PRODUCT_LIMITS.descriptionMaxChars}
                  {...form.getInputProps('description')}
                />
                <Group>
                  <Button
                    variant="light"
                    size="compact-sm"
                    leftSection={<IconSparkles size={14} />}
                    onClick={ai.open}
                  >
                    AI Description Generator
                  </Button>
                </Group>
              </Stack>
              <Group justify="flex-end" gap="sm">
                <Button component={Link} to="/market" variant="default">
                  Cancel
                </Button>
                <Button type="submit" loading={create.isPending}>
                  Create Product
                </Button>
              </Group>
            </Stack>
          </form>
        </Card>
      </Box>

      <Modal
        opened={aiOpened}
        onClose={ai.close}
        title="Generate Product Description with AI"
        size="lg"
        centered
      >
        <AiDescriptionGenerator
          name={form.values.name}
          type={form.values.type}
          onApply={(description) => {
            form.setFieldValue('description', description);
            ai.close();
          }}
        />
      </Modal>
    </>
  );
}
