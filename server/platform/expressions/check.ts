import { isRecord } from '../errors';
import { checkCel } from './cel';
import { ExpressionError } from './errors';

/** A problem of an expression for a spec's problem list: its field, then the text, position and reason. */
export function expressionProblem(problem: ExpressionError): { path: string; message: string } {
  const prefix = `${problem.where} `;
  return { path: problem.where, message: problem.message.startsWith(prefix) ? problem.message.slice(prefix.length) : problem.message };
}

/** checkCel as a list of spec problems (empty when the expression compiles). */
export function celProblems(where: string, expression: string): Array<{ path: string; message: string }> {
  try {
    checkCel(where, expression);
    return [];
  } catch (error) {
    if (error instanceof ExpressionError) return [expressionProblem(error)];
    throw error;
  }
}

/** Fields that hold CEL in every Flanksource format: `expr` and any `…Expr` (healthExpr, statusExpr, valueExpr). */
const CEL_FIELD = /^(expr|[a-z][A-Za-z]*Expr)$/;

/**
 * Compiles every CEL field found anywhere in a spec (`expr`, `healthExpr`, …), for apply: each that does not
 * compile is a problem at its path (`spec.file[0].transform.expr`), with the text and line:column.
 */
export function celFieldProblems(value: unknown, path: string): Array<{ path: string; message: string }> {
  const problems: Array<{ path: string; message: string }> = [];
  const walk = (node: unknown, at: string, depth: number) => {
    if (depth > 64) return;
    if (Array.isArray(node)) node.forEach((item, index) => walk(item, `${at}[${index}]`, depth + 1));
    else if (isRecord(node)) {
      for (const [key, item] of Object.entries(node)) {
        const where = at ? `${at}.${key}` : key;
        if (CEL_FIELD.test(key) && typeof item === 'string' && item.trim() !== '') problems.push(...celProblems(where, item));
        else walk(item, where, depth + 1);
      }
    }
  };
  walk(value, path, 0);
  return problems;
}
