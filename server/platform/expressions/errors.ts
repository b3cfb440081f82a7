/** Where in an expression's text a problem is: 1-based line and column (in characters). */
export interface ExpressionPosition {
  readonly line: number;
  readonly column: number;
}

/** An expression that does not parse or does not evaluate; its message names the expression. */
export class ExpressionError extends Error {
  constructor(
    readonly where: string,
    readonly expression: string,
    readonly reason: string,
    readonly position?: ExpressionPosition,
  ) {
    const shown = JSON.stringify(expression.length > 200 ? `${expression.slice(0, 200)}…` : expression);
    super(`${where} ${shown}${position ? ` at ${position.line}:${position.column}` : ''}: ${reason}`);
    this.name = 'ExpressionError';
  }
}
