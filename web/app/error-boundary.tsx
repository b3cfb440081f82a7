import { Component, type ErrorInfo, type ReactNode } from 'react';

export interface ErrorBoundaryProps {
  /** What to show instead of the crashed tree; `reset` renders the children again. */
  fallback: (error: unknown, reset: () => void) => ReactNode;
  /** When this changes (e.g. the location), a crashed boundary tries again. */
  resetKey?: string;
  children: ReactNode;
}

interface State {
  failed: boolean;
  error: unknown;
}

/** Spec §2: content is wrapped in an error boundary; an uncaught error shows an error screen and is logged. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, State> {
  override state: State = { failed: false, error: undefined };

  static getDerivedStateFromError(error: unknown): State {
    return { failed: true, error };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo): void {
    console.error('Uncaught error in page', error, info.componentStack);
  }

  override componentDidUpdate(previous: ErrorBoundaryProps): void {
    if (this.state.failed && previous.resetKey !== this.props.resetKey) this.reset();
  }

  reset = (): void => {
    this.setState({ failed: false, error: undefined });
  };

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback(this.state.error, this.reset) : this.props.children;
  }
}
