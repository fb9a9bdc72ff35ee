import { Box, Card, Group, Paper, SimpleGrid, Stack, Table, Text, type TableProps } from '@mantine/core';
import { Fragment, type ReactNode } from 'react';

/** Data attributes (e.g. `data-testid`) put on a row or a card. */
export type DataAttributes = Record<`data-${string}`, string | number | undefined>;

export interface ResponsiveColumn<T> {
  /** The column header (the card's label for this value). */
  header: string;
  cell: (row: T) => ReactNode;
  align?: 'left' | 'right';
  /** A fixed width for tables with `layout="fixed"`. */
  width?: number | string;
  /** A cap on the cell's width (e.g. for text truncated with an ellipsis). */
  maxWidth?: number;
  /** Keeps the cell on one line (amounts, dates). */
  nowrap?: boolean;
  /** A header cell of its own (e.g. a sort button); it must render a `Table.Th`. */
  th?: ReactNode;
  /** Left off the default card (e.g. the value is the card's title). */
  hideOnCard?: boolean;
  /** On the default card, across both of its columns (long text, actions). */
  wide?: boolean;
}

export interface ResponsiveTableProps<T> {
  rows: T[];
  columns: ResponsiveColumn<T>[];
  rowKey: (row: T) => string | number;
  /** The table's accessible name, also the card list's. */
  label: string;
  /** Below this width the table scrolls sideways inside its frame (only from `sm` up). */
  minWidth: number;
  layout?: TableProps['layout'];
  /** Data attributes of each table row (e.g. a test id). */
  rowAttributes?: (row: T) => DataAttributes;
  /** Data attributes of each card. */
  cardAttributes?: (row: T) => DataAttributes;
  /** Data attributes of the card list. */
  listAttributes?: DataAttributes;
  /** The default card's first line: a title on the left, badges on the right. */
  cardTitle?: (row: T) => ReactNode;
  cardBadge?: (row: T) => ReactNode;
  /** The default card's last line (e.g. buttons). */
  cardFooter?: (row: T) => ReactNode;
  /** A card of its own instead of the default one (it receives the card's data attributes). */
  card?: (row: T, attributes: DataAttributes) => ReactNode;
}

/**
 * A list that holds on any screen: a table from the `sm` breakpoint (the product reference's 768 px) up, and below
 * it one card per row, so that no page scrolls sideways on a phone. The default card shows
 * the title and badges, then every column's header and value in two columns, then the footer.
 */
export function ResponsiveTable<T>(props: ResponsiveTableProps<T>) {
  const { rows, columns, rowKey, label, minWidth, layout, rowAttributes } = props;
  return (
    <>
      <Paper withBorder radius="md" visibleFrom="sm">
        <Table.ScrollContainer minWidth={minWidth}>
          <Table striped highlightOnHover verticalSpacing="sm" aria-label={label} layout={layout}>
            <Table.Thead>
              <Table.Tr>
                {columns.map((column) => (
                  <Fragment key={column.header}>
                    {column.th ?? (
                      <Table.Th
                        scope="col"
                        ta={column.align}
                        w={column.width}
                        style={{ whiteSpace: 'nowrap' }}
                      >
                        {column.header}
                      </Table.Th>
                    )}
                  </Fragment>
                ))}
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {rows.map((row) => (
                <Table.Tr key={rowKey(row)} {...rowAttributes?.(row)}>
                  {columns.map((column) => (
                    <Table.Td
                      key={column.header}
                      ta={column.align}
                      maw={column.maxWidth}
                      style={column.nowrap ? { whiteSpace: 'nowrap' } : undefined}
                    >
                      {column.cell(row)}
                    </Table.Td>
                  ))}
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      </Paper>
      <Stack gap="sm" hiddenFrom="sm" role="list" aria-label={label} {...props.listAttributes}>
        {rows.map((row) => (
          <Box key={rowKey(row)} role="listitem">
            {props.card ? (
              props.card(row, props.cardAttributes?.(row) ?? {})
            ) : (
              <DefaultCard {...props} row={row} />
            )}
          </Box>
        ))}
      </Stack>
    </>
  );
}

function DefaultCard<T>({
  row,
  columns,
  cardAttributes,
  cardTitle,
  cardBadge,
  cardFooter,
}: ResponsiveTableProps<T> & { row: T }) {
  const shown = columns.filter((column) => !column.hideOnCard);
  return (
    <Card withBorder radius="md" padding="md" {...cardAttributes?.(row)}>
      <Stack gap="xs">
        {(cardTitle || cardBadge) && (
          <Group justify="space-between" align="flex-start" wrap="nowrap" gap="xs">
            <Box fw={700} miw={0} style={{ overflowWrap: 'anywhere' }}>
              {cardTitle?.(row)}
            </Box>
            {cardBadge && (
              <Group gap={6} wrap="nowrap" style={{ flexShrink: 0 }}>
                {cardBadge(row)}
              </Group>
            )}
          </Group>
        )}
        <SimpleGrid cols={2} spacing="xs" verticalSpacing="xs">
          {shown.map((column) => (
            <Stack
              key={column.header}
              gap={0}
              miw={0}
              style={column.wide ? { gridColumn: '1 / -1' } : undefined}
            >
              <Text size="xs" c="dimmed">
                {column.header}
              </Text>
              <Box fz="sm" style={{ overflowWrap: 'anywhere' }}>
                {column.cell(row)}
              </Box>
            </Stack>
          ))}
        </SimpleGrid>
        {cardFooter?.(row)}
      </Stack>
    </Card>
  );
}
