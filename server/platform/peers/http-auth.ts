import { signAwsV4 } from './aws-sigv4';
import type { HttpRequest } from './http-client';
import { clientCredentialsToken, forgetToken, type ClientCredentials } from './oauth2';
import type { AwsSigV4Spec, HttpSpec } from './http-spec';

/** The credentials part of a request, as canary-checker's http check sets them up. */
export type Credentials = Pick<HttpRequest, 'basicAuth' | 'digestAuth' | 'bearerToken' | 'sign'>;

export class InvalidAuth extends Error {
  override name = 'InvalidAuth';
}

/**
 * The service of an AWS endpoint named after it (sts.us-east-1.amazonaws.com → sts), as canary-checker's
 * client guesses it when `service` is not given.
 */
function serviceOfHost(host: string): string | undefined {
  const parts = host.split('.');
  return parts.length >= 3 && host.endsWith('.amazonaws.com') ? parts[0] : undefined;
}

/**
 * Signing with awsSigV4: static keys (the default AWS credential chain of the server is not read: a canary
 * must not sign with the server's own identity), the region (default us-east-1) and the service (default:
 * from an *.amazonaws.com host). With `endpoint` the request goes there instead, as canary-checker's
 * client does (plain http unless the endpoint names its scheme).
 */
export function awsSigning(aws: AwsSigV4Spec, url: URL): { url: URL; sign: NonNullable<HttpRequest['sign']> } {
  if (aws.connection) throw new InvalidAuth(`awsSigV4.connection is not supported (there are no stored connections here); give accessKey and secretKey`);
  if (aws.assumeRole) throw new InvalidAuth('awsSigV4.assumeRole is not supported: sign with the keys of the role itself');
  if (!aws.accessKey || !aws.secretKey) throw new InvalidAuth('awsSigV4 needs accessKey and secretKey (the server’s own AWS credentials are never used)');
  let target = url;
  if (aws.endpoint) {
    const endpoint = /^[a-z][a-z0-9+.-]*:\/\//i.test(aws.endpoint) ? new URL(aws.endpoint) : new URL(`http://${aws.endpoint}`);
    target = new URL(url);
    target.protocol = endpoint.protocol;
    target.host = endpoint.host;
  }
  // The service is read from the URL written, before an endpoint replaces its host (as canary-checker's client).
  const service = aws.service || serviceOfHost(url.hostname);
  if (!service) throw new InvalidAuth(`awsSigV4.service is required: ${url.hostname} does not name an AWS service`);
  const keys = { accessKey: aws.accessKey, secretKey: aws.secretKey, region: aws.region || 'us-east-1', service, ...(aws.sessionToken ? { sessionToken: aws.sessionToken } : {}) };
  return { url: target, sign: (request) => signAwsV4(request, keys) };
}

export function oauthGrant(spec: HttpSpec, username: string, password: string): ClientCredentials | undefined {
  if (!spec.oauth2) return undefined;
  return { tokenURL: spec.oauth2.tokenURL, clientId: username, clientSecret: password, scopes: [...(spec.oauth2.scope ?? []), ...(spec.oauth2.scopes ?? [])], params: spec.oauth2.params ?? {} };
}

/**
 * The credentials of the request: an OAuth2 bearer token (client id and secret from username and
 * password), else Digest when `digest` is set, else Basic when there is a username or password; AWS
 * signing on top (its Authorization wins).
 */
export async function credentialsFor(spec: HttpSpec, username: string, password: string, transport: Pick<HttpRequest, 'tls' | 'signal'>): Promise<Credentials> {
  const grant = oauthGrant(spec, username, password);
  if (grant) return { bearerToken: await clientCredentialsToken(grant, transport) };
  if (!username && !password) return {};
  return spec.digest ? { digestAuth: { username, password } } : { basicAuth: { username, password } };
}

/** A token the API refused is not reused on the next run. */
export function refusedToken(spec: HttpSpec, username: string, password: string, status: number): void {
  const grant = oauthGrant(spec, username, password);
  if (grant && status === 401) forgetToken(grant);
}
