// The expression language every feature speaks (DESIGN §3): CEL with the Flanksource functions, Go
// templates and `$(.var)` interpolation. Features import from here, never from an engine directly.
export { ExpressionError } from './errors';
export { celDuration, celIsTrue, celScope, checkCel, evaluateCel, evaluateTest, type CelScope } from './cel';
export { NOTIFICATION_FUNCTIONS, PLAYBOOK_FUNCTIONS, renderTemplate, type FunctionSet } from './template';
export { interpolate, interpolationEnd } from './interpolate';
export { checkJavascript, evaluateJavascript } from './javascript';
export { checkTemplateSpec, evaluateTemplateSpec, goText, readTemplateSpec, templateSpecText, type TemplateSpec } from './template-spec';
export { celFieldProblems, celProblems, expressionProblem } from './check';
