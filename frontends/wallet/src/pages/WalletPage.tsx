import { Button, Group, Skeleton } from '@mantine/core';
import {
  BalanceFigure,
  EmptyState,
  LoadError,
  MountedFromFirstOpening,
  PAGE_HEADINGS,
  PageHeader,
  useCurrentUser,
  WalletSummary,
} from '@qm/ui';
import { IconPlus, IconSend, IconWalletOff } from '@tabler/icons-react';
import { Link } from 'react-router-dom';
import { useQuery } from '@tanstack/react-query';
import { lazy, useState } from 'react';
import { walletViewQuery } from '../api';
import { HeldProceeds } from '../components/HeldProceeds';
import { TransactionHistory } from '../components/TransactionHistory';
import { useTransferFlow } from '../transfer/TransferFlow';

// Its form and checkout, with their schemas and zod, are fetched when it is first opened: the page's
// first screen needs none of them (docs/adr/037-first-screens-without-zod.md).
const AddMoneyDialog = lazy(() =>
  import('../checkout/AddMoneyDialog').then((m) => ({ default: m.AddMoneyDialog })),
);

/** /wallet (docs/product.md §2): Current Balance, Actions (Add Money, Transfer) and Transaction History. */
export function WalletPage() {
  const { user, isAdmin } = useCurrentUser();
  // Renders nothing without a signed-in user (the shell's guard normally sends them to /auth).
  if (!user) return null;
  return isAdmin ? <NoAdminWallet /> : <Wallet />;
}

/** Administrators oversee wallets and hold none: no balance to fetch, no money to move. */
function NoAdminWallet() {
  return (
    <>
      <PageHeader {...PAGE_HEADINGS['/wallet']} />
      <EmptyState
        icon={<IconWalletOff size={26} />}
        title="Administrators have no wallet"
        description="Wallets belong to Army and Manufacturer accounts. Every wallet, with its balance and transactions, is under Admin → Wallets."
        action={
          <Group justify="center" gap="sm" mt="sm">
            <Button component={Link} to="/admin/wallets">
              View all wallets
            </Button>
            <Button component={Link} to="/admin/transactions" variant="default">
              View all transactions
            </Button>
          </Group>
        }
      />
    </>
  );
}

function Wallet() {
  const wallet = useQuery(walletViewQuery());
  const [adding, setAdding] = useState(false);
  const transferFlow = useTransferFlow(wallet.data?.availableBalance);

  return (
    <>
      <PageHeader {...PAGE_HEADINGS['/wallet']} />
      <WalletSummary
        balance={
          wallet.isPending ? (
            <Skeleton height={36} width={180} mt={6} role="status" aria-label="Loading balance" />
          ) : wallet.isError ? (
            <LoadError
              title="Failed to fetch wallet balance"
              error={wallet.error}
              fallback="Please try again in a moment."
              onRetry={() => void wallet.refetch()}
              variant="light"
              mt="xs"
            />
          ) : (
            <BalanceFigure wallet={wallet.data} />
          )
        }
        actions={
          <Group grow preventGrowOverflow={false}>
            <Button leftSection={<IconPlus size={16} />} onClick={() => setAdding(true)}>
              Add Money
            </Button>
            <Button
              variant="light"
              leftSection={<IconSend size={16} />}
              onClick={transferFlow.start}
              loading={transferFlow.checking}
            >
              Transfer
            </Button>
          </Group>
        }
      />
      {wallet.data && <HeldProceeds wallet={wallet.data} />}
      <TransactionHistory />
      <MountedFromFirstOpening opened={adding}>
        <AddMoneyDialog opened={adding} onClose={() => setAdding(false)} />
      </MountedFromFirstOpening>
      {transferFlow.dialogs}
    </>
  );
}
