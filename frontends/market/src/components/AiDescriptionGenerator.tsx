import { Badge, Button, Group, Paper, Stack, Text, Textarea } from '@mantine/core';
import { DESCRIPTION_LIMITS, MISSING_INFORMATION } from '@qm/contracts/rest';
import { ApiError, toast } from '@qm/ui';
import { IconCheck, IconCopy, IconSparkles, IconWand } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { generateDescription } from '../api';
import { copyText } from './copyText';

/** docs/product.md §9: the copy confirmation shows for 2 s. */
const COPIED_MS = 2_000;

export interface AiDescriptionGeneratorProps {
  /** The product name and type as currently entered in the form. */
  name: string;
  type: string;
  /** Puts the generated text into the form's description. */
  onApply: (description: string) => void;
}

function missingInformation() {
  toast({
    color: 'yellow',
    title: MISSING_INFORMATION,
    message: 'Enter the product name and type before generating a description.',
  });
}

/**
 * The AI description generator (docs/product.md §2, §5, §8): drafts a description from the current name and type
 * plus optional features; the draft can be copied or applied to the form.
 */
export function AiDescriptionGenerator({ name, type, onApply }: AiDescriptionGeneratorProps) {
  const [features, setFeatures] = useState('');
  const [draft, setDraft] = useState('');
  const [copied, setCopied] = useState(false);
  const copiedTimer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(copiedTimer.current), []);

  const generate = useMutation({
    mutationFn: generateDescription,
    retry: false,
    onSuccess: ({ description }) => {
      setDraft(description);
      toast({
        color: 'green',
        title: 'Description generated',
        message: 'Review the draft, then copy it or apply it to the product.',
      });
    },
    onError: (error) => {
      if (error instanceof ApiError && error.serverMessage === MISSING_INFORMATION) {
        missingInformation();
        return;
      }
      toast({
        color: 'red',
        title: 'Error generating description',
        message:
          error instanceof ApiError && error.status === 429 && error.serverMessage
            ? error.serverMessage
            : 'There was a problem generating your description.',
      });
    },
  });

  const onGenerate = () => {
    if (!name.trim() || !type.trim()) {
      missingInformation();
      return;
    }
    generate.mutate({ name: name.trim(), category: type, features: features.trim() });
  };

  const onCopy = async () => {
    try {
      await copyText(draft);
      setCopied(true);
      clearTimeout(copiedTimer.current);
      copiedTimer.current = setTimeout(() => setCopied(false), COPIED_MS);
      toast({
        color: 'green',
        title: 'Copied to clipboard',
        message: 'The description is ready to paste.',
      });
    } catch {
      toast({
        color: 'red',
        title: 'Copy failed',
        message: 'Select the text and copy it manually.',
      });
    }
  };

  const onApplyDraft = () => {
    onApply(draft);
    toast({
      color: 'green',
      title: 'Description applied',
      message: 'The generated description is now in the product form.',
    });
  };

  return (
    <Stack gap="sm" data-testid="ai-generator">
      <Group gap="xs" wrap="wrap">
        <Text size="sm" c="dimmed">
          Generating for
        </Text>
        <Text size="sm" fw={600}>
          {name.trim() || 'Unnamed product'}
        </Text>
        {type && (
          <Badge variant="light" size="sm">
            {type}
          </Badge>
        )}
      </Group>
      <Textarea
        label="Key features"
        description="Optional: leave empty for a general military-grade description."
        placeholder="e.g. lightweight composite frame, night-vision compatible, all-weather seals"
        autosize
        minRows={2}
        maxRows={5}
        maxLength={DESCRIPTION_LIMITS.featuresMaxChars}
        value={features}
        onChange={(event) => setFeatures(event.currentTarget.value)}
      />
      <Group>
        <Button
          onClick={onGenerate}
          loading={generate.isPending}
          leftSection={<IconSparkles size={16} />}
          variant="light"
        >
          {draft ? 'Generate Again' : 'Generate Description'}
        </Button>
      </Group>
      {draft && (
        <Paper withBorder radius="md" p="sm">
          <Stack gap="sm">
            <Textarea
              label="Generated description"
              autosize
              minRows={4}
              maxRows={12}
              value={draft}
              onChange={(event) => setDraft(event.currentTarget.value)}
            />
            <Group justify="flex-end" gap="sm">
              <Button
                variant="default"
                onClick={() => void onCopy()}
                leftSection={copied ? <IconCheck size={16} /> : <IconCopy size={16} />}
                color={copied ? 'green' : undefined}
              >
                {copied ? 'Copied' : 'Copy'}
              </Button>
              <Button onClick={onApplyDraft} leftSection={<IconWand size={16} />}>
                Apply Description
              </Button>
            </Group>
          </Stack>
        </Paper>
      )}
    </Stack>
  );
}
