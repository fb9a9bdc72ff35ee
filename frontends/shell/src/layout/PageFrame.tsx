import { Container } from '@mantine/core';
import type { OwnWalletView, TransactionsPage } from '@qm/contracts/rest';
import {
  BalanceFigure,
  HistoryFilterPlaceholder,
  historyPageKey,
  NoTransactions,
  PageHeader,
  pageHeadingOf,
  PageLoader,
  WALLET_VIEW_KEY,
  WalletActionsPlaceholder,
  TransactionHistoryCard,
  WalletSummary,
} from '@qm/ui';
import { useQueryClient } from '@tanstack/react-query';
import { useLocation } from 'react-router-dom';
import { PAGE_LOADING_HEIGHT } from './pageLoaderHeight';

export interface PageFrameProps {
  message?: string;
  /** false inside a remote page's own Container (RemotePage), which already places the heading. */
  container?: boolean;
}

/**
 * A page still loading: the loading message, under the page's heading when its path has one
 * (@qm/ui PAGE_HEADINGS), placed where the page will put its own. The guards, the lazy page frame and a
 * remote's loading state all show it, and the gateway sends it prerendered (ADR 018), so the heading
 * painted first stays put until the page replaces it with the same one. /wallet's frame also has the
 * balance when the gateway sent it with the page (docs/adr/031), and an empty history's card when the
 * history it sent is empty, drawn as the page draws them.
 */
export function PageFrame({ message, container = true }: PageFrameProps) {
  const { pathname } = useLocation();
  const heading = pageHeadingOf(pathname);
  const queryClient = useQueryClient();
  const wallet = queryClient.getQueryData<OwnWalletView>(WALLET_VIEW_KEY);
  const history = queryClient.getQueryData<TransactionsPage>(historyPageKey(1));
  const loader = <PageLoader message={message} minHeight={PAGE_LOADING_HEIGHT} />;
  if (!heading) return loader;
  const frame = (
    <>
      <PageHeader {...heading} />
      {pathname === '/wallet' && wallet && (
        <>
          <WalletSummary balance={<BalanceFigure wallet={wallet} />} actions={<WalletActionsPlaceholder />} />
          {history?.total === 0 && (
            <TransactionHistoryCard filter={<HistoryFilterPlaceholder />}>
              <NoTransactions />
            </TransactionHistoryCard>
          )}
        </>
      )}
      {loader}
    </>
  );
  return container ? (
    <Container size="lg" py="xl">
      {frame}
    </Container>
  ) : (
    frame
  );
}
