import { Modal, type ModalProps } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** Mantine's xs breakpoint: below it a dialog takes the whole screen. */
const MOBILE = '(max-width: 36em)';

/** The wallet's dialogs: centred on wide screens, full-screen on phones. */
export function WalletModal(props: ModalProps) {
  const mobile = useMediaQuery(MOBILE) ?? false;
  return (
    <Modal
      centered
      radius="md"
      fullScreen={mobile}
      transitionProps={mobile ? { transition: 'fade', duration: 150 } : undefined}
      closeButtonProps={{ 'aria-label': 'Close' }}
      {...props}
    />
  );
}
