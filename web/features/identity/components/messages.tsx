import { AUTH_MESSAGE_CLEAR_MS } from '@common/constants';
import { CircleAlert, CircleCheck, Info } from 'lucide-react';
import { useEffect, useState } from 'react';
import { cn } from '@web/ui/primitives/cn';
import type { UiText } from '../kratos/schema';

const styles: Record<UiText['type'], { box: string; icon: typeof Info }> = {
  info: { box: 'border-blue-200 bg-blue-50 text-blue-900', icon: Info },
  success: { box: 'border-green-200 bg-green-50 text-green-900', icon: CircleCheck },
  error: { box: 'border-red-200 bg-red-50 text-red-900', icon: CircleAlert },
};

/**
 * Spec §9: auth messages clear after 10 s. Outcomes (errors, successes) go; info messages stay, since
 * they tell the person what to do next ("enter the code we sent"). `version` changes with every new set.
 */
export function useAutoClear(messages: readonly UiText[], version: unknown, ms = AUTH_MESSAGE_CLEAR_MS): UiText[] {
  const [cleared, setCleared] = useState<unknown>(undefined);
  useEffect(() => {
    const timer = setTimeout(() => setCleared(version), ms);
    return () => clearTimeout(timer);
  }, [version, ms]);
  return cleared === version ? messages.filter((message) => message.type === 'info') : [...messages];
}

/** The flow's messages above its forms (info, success and error styles); errors are announced. */
export function FlowMessages({ messages, className }: { messages: readonly UiText[]; className?: string }) {
  if (messages.length === 0) return null;
  return (
    <ul className={cn('flex flex-col gap-2', className)}>
      {messages.map((message, index) => {
        const { box, icon: Icon } = styles[message.type];
        return (
          <li
            key={`${message.id}-${index}`}
            role={message.type === 'error' ? 'alert' : 'status'}
            data-message-id={message.id}
            className={cn('flex items-start gap-2 rounded-md border px-3 py-2 text-sm', box)}
          >
            <Icon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>{message.text}</span>
          </li>
        );
      })}
    </ul>
  );
}
