import { ActionIcon, Box, Group, Text, ThemeIcon, Tooltip } from '@mantine/core';
import { IconEraser, IconMessageChatbot, IconRefresh, IconTrash, IconX } from '@tabler/icons-react';
import type { CSSProperties, ReactNode } from 'react';
import { PANEL_TITLE_ID } from './ids';
import { ASSISTANT_TEXTS } from './texts';
import type { ContextStatus } from './useAssistantContext';

const HEADER_BUTTON_VARS = {
  '--ai-color': 'var(--mantine-color-white)',
  '--ai-hover': 'rgba(255, 255, 255, 0.16)',
  '--ai-hover-color': 'var(--mantine-color-white)',
} as CSSProperties;

function HeaderButton(props: {
  label: string;
  onClick: () => void;
  disabled?: boolean;
  loading?: boolean;
  children: ReactNode;
}) {
  const { label, onClick, disabled, loading, children } = props;
  return (
    <Tooltip label={label} withinPortal zIndex={300}>
      <ActionIcon
        variant="subtle"
        size={30}
        className="qm-assistant-header-button"
        // White on the olive header, in both themes (Mantine's subtle colours are for light surfaces).
        style={HEADER_BUTTON_VARS}
        aria-label={label}
        onClick={onClick}
        disabled={disabled}
        loading={loading}
        loaderProps={{ color: 'white', size: 14 }}
      >
        {children}
      </ActionIcon>
    </Tooltip>
  );
}

export interface PanelHeaderProps {
  contextStatus: ContextStatus;
  deleting: boolean;
  onClear: () => void;
  onDeleteAll: () => void;
  onRefresh: () => void;
  onClose: () => void;
}

/** Title, "Connecting..." until the context has loaded and "Online" after, and the four actions. */
export function PanelHeader({
  contextStatus,
  deleting,
  onClear,
  onDeleteAll,
  onRefresh,
  onClose,
}: PanelHeaderProps) {
  const online = contextStatus === 'done';
  return (
    <Group className="qm-assistant-header" justify="space-between" wrap="nowrap" gap="xs">
      <Group gap="xs" wrap="nowrap" miw={0}>
        <ThemeIcon variant="white" color="army.9" radius="xl" size={32} visibleFrom="xs" aria-hidden>
          <IconMessageChatbot size={20} />
        </ThemeIcon>
        <Box miw={0}>
          <Text id={PANEL_TITLE_ID} component="h2" fw={700} fz="sm" lh={1.25} m={0}>
            {ASSISTANT_TEXTS.title}
          </Text>
          <Group gap={6} wrap="nowrap" data-testid="assistant-status">
            <span className="qm-assistant-status-dot" data-online={online || undefined} aria-hidden />
            <Text fz="xs" lh={1.3} role="status">
              {online ? ASSISTANT_TEXTS.online : ASSISTANT_TEXTS.connecting}
            </Text>
          </Group>
        </Box>
      </Group>
      <Group gap={2} wrap="nowrap" style={{ flex: 'none' }}>
        <HeaderButton label="Clear current chat" onClick={onClear}>
          <IconEraser size={18} />
        </HeaderButton>
        <HeaderButton label="Delete all memory" onClick={onDeleteAll} loading={deleting}>
          <IconTrash size={18} />
        </HeaderButton>
        <HeaderButton label="Refresh context" onClick={onRefresh} disabled={!online}>
          <IconRefresh size={18} />
        </HeaderButton>
        <HeaderButton label="Close" onClick={onClose}>
          <IconX size={18} />
        </HeaderButton>
      </Group>
    </Group>
  );
}
