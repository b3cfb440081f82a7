import { isRecord, messageOf } from '../../../platform/errors';
import { celDuration } from '../../../platform/expressions';
import { MAX_BODY_BYTES, type HttpResponse } from '../../../platform/peers/http-client';
import type { CheckOutcome } from '../types';
import { describeCertificate, expiryProblem, type CertificateInfo } from './certificate';
import type { HttpSpec } from '../../../platform/peers/http-spec';
import { parseJsonPath, textOf, valueAt } from '../../../platform/peers/json-path';
import { shown, shownText } from '../../../platform/peers/shown-url';

/** Kept with each result for people to read: the start of the answer, not all of it. */
const DETAIL_BODY_CHARS = 4096;

export { shown, shownText };

/** Header names as Go writes them (Content-Type), so canary-checker expressions such as headers['Location'] work. */
function canonicalHeaders(headers: HttpResponse['headers']): Record<string, string> {
  const result: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    const canonical = name.replace(/(^|-)([a-z])/g, (_match, dash: string, letter: string) => dash + letter.toUpperCase());
    result[canonical] = Array.isArray(value) ? value.join(', ') : value;
  }
  return result;
}

function hasTest(spec: HttpSpec): boolean {
  const test = spec.test;
  return isRecord(test) && Object.values(test).some((value) => typeof value === 'string' && value.trim() !== '');
}

/**
 * The verdict on an answer: the code (responseCodes, else 200–299), thresholdMillis, responseContent,
 * maxSSLExpiry (and responseJSONContent, which current canary-checker versions no longer evaluate).
 * Unlike canary-checker, whose 200–299 rule fails a check whatever its test says, a check with a test and
 * no responseCodes lets the test judge the code (`test: code == 401`), as this console's examples rely on.
 */
export function judge(spec: HttpSpec, method: string, response: HttpResponse, duration: number): CheckOutcome {
  const content = response.body.toString('utf8');
  const headers = canonicalHeaders(response.headers);
  const certificate: CertificateInfo | undefined = response.certificate ? describeCertificate(response.certificate) : undefined;
  const problems: string[] = [];

  let json: unknown = {};
  // canary-checker reads JSON when the content type says application/json.
  if (/application\/json/i.test(headers['Content-Type'] ?? '')) {
    try {
      json = JSON.parse(content);
    } catch (error) {
      // As canary-checker: a broken JSON answer fails unless a test is given (which then sees json as {}).
      if (!hasTest(spec)) problems.push(`the answer is not valid JSON: ${messageOf(error)}`);
    }
  }

  const code = response.status;
  if (spec.responseCodes?.length) {
    if (!spec.responseCodes.includes(code)) problems.push(`answered ${code}, expected ${spec.responseCodes.join(' or ')}`);
  } else if (!hasTest(spec) && (code < 200 || code > 299)) {
    problems.push(`answered ${code}, expected 200–299`);
  }
  if (spec.thresholdMillis && duration > spec.thresholdMillis) problems.push(`answered in ${duration} ms, more than the threshold of ${spec.thresholdMillis} ms`);
  if (spec.responseContent && !content.includes(spec.responseContent)) problems.push(`the answer does not contain "${spec.responseContent}"`);
  if (spec.responseJSONContent) {
    const found = valueAt(json, parseJsonPath(spec.responseJSONContent.path) ?? []);
    if (found === undefined) problems.push(`the answer has nothing at ${spec.responseJSONContent.path}`);
    else if (textOf(found) !== spec.responseJSONContent.value) problems.push(`${spec.responseJSONContent.path} is "${textOf(found)}", expected "${spec.responseJSONContent.value}"`);
  }
  if (spec.maxSSLExpiry) {
    const problem = certificate ? expiryProblem(certificate, spec.maxSSLExpiry) : 'there is no certificate to check (maxSSLExpiry needs an https URL)';
    if (problem) problems.push(problem);
  }

  const data = { code, headers, content, json, sslAge: celDuration(certificate?.msLeft ?? 0), elapsed: celDuration(duration) };
  const details = {
    url: shown(response.url),
    method,
    status: code,
    headers,
    body: content.length > DETAIL_BODY_CHARS ? `${content.slice(0, DETAIL_BODY_CHARS)}…` : content,
    ...(response.truncated ? { truncated: `the answer was longer than ${MAX_BODY_BYTES} bytes; only that much was read` } : {}),
    ...(response.redirects.length ? { redirects: response.redirects.map((item) => shown(new URL(item))) } : {}),
    ...(certificate ? { certificate } : {}),
  };
  const summary = `${code} in ${duration} ms${certificate ? `, certificate valid for ${certificate.daysLeft} more days` : ''}`;
  if (problems.length > 0) return { pass: false, duration, message: problems.join('; '), data, details };
  return { pass: true, duration, message: summary, data, details };
}
