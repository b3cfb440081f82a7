import type pg from 'pg';
import { isRole, ROLES } from '../../../common/rbac';
import { AppError, ValidationError } from '../../platform/http/errors';
import { CliError } from '../../platform/cli-error';
import type { InviteMail, InviteMailResult } from './invite-mail';
import { addPlatformAdmin, createOrganization, findOrganization, inviteMember, listOrganizations, listPlatformAdmins, removePlatformAdmin, updateOrganization, type OrganizationRow } from './service';

export const ORG_USAGE = `  org create NAME [--backend URL] [--direct] [--external-id ID]
                        create an organization of hosted mode (docs/HOSTED.md)
  org list              list organizations: id, name, members, backend
  org invite ORG EMAIL [--role R]
                        add a person (their account is made when there is none); ORG is a name, external id or id;
                        with SMTP_URL and WATCHKEEPER_AUTH=oidc they are mailed where to sign in (PUBLIC_URL/login)
  org set-backend ORG URL|none [--direct|--proxied]
                        set (or clear) the organization's backend URL and how the browser reaches it
  org platform-admin add|remove EMAIL
                        make a person a platform administrator (manages every organization) or take it back
  org platform-admin list
                        list the platform administrators`;

export interface OrgOptions {
  backend?: string | undefined;
  direct?: boolean | undefined;
  proxied?: boolean | undefined;
  role?: string | undefined;
  externalId?: string | undefined;
}

/** How `org invite` mails the person: the console's invitation mailer and where they sign in. */
export interface OrgMail {
  send: (mail: InviteMail) => Promise<InviteMailResult>;
  consoleUrl: string;
}

/** The service's field names, as the command line spells them. */
const FLAGS: Record<string, string> = { 'body.backend_url': 'URL', 'body.direct': '--direct', 'body.name': 'NAME', 'body.external_id': '--external-id' };

function cliMessage(error: AppError): string {
  if (error instanceof ValidationError) return error.issues.map((issue) => `${FLAGS[issue.path] ?? issue.path}: ${issue.message}`).join('\n');
  return error.message;
}

function line(row: OrganizationRow): string {
  const backend = row.backend_url ? `${row.backend_url} (${row.direct ? 'direct' : 'proxied'})` : 'this server';
  return `${row.id}  ${row.name}${row.external_id ? ` [${row.external_id}]` : ''}  ${row.members} member(s)  backend: ${backend}`;
}

/**
 * `watchkeeper org create|list|invite|set-backend|platform-admin …`: answers what to print; a refusal is a CliError. What
 * the invitation mail did goes to `notes` (stderr), the membership being made whatever it did.
 */
export async function orgCommand(pool: pg.Pool, args: string[], options: OrgOptions, mail?: OrgMail, notes: (line: string) => void = () => undefined): Promise<string> {
  const [sub, ...rest] = args;
  try {
    switch (sub) {
      case 'create': {
        const name = rest.join(' ').trim();
        if (!name) throw new CliError('org create needs a NAME');
        if (options.direct && options.proxied) throw new CliError('--direct and --proxied: choose one');
        const row = await createOrganization(pool, { name, backend_url: options.backend ?? null, direct: options.direct ?? false, external_id: options.externalId ?? null });
        return `created organization ${line(row)}\n`;
      }
      case 'list': {
        const rows = await listOrganizations(pool);
        return rows.length === 0 ? 'no organizations\n' : `${rows.map(line).join('\n')}\n`;
      }
      case 'invite': {
        const [reference, email] = rest;
        if (!reference || !email) throw new CliError('org invite needs ORG and EMAIL');
        if (!/^[^\s@]+@[^\s@]+$/.test(email)) throw new CliError(`EMAIL ${JSON.stringify(email)} is not an email address`);
        if (options.role !== undefined && !isRole(options.role)) throw new CliError(`--role ${options.role}: use one of ${ROLES.join(', ')}`);
        const organization = await findOrganization(pool, reference);
        const { member, created } = await inviteMember(pool, organization.id, { email, role: isRole(options.role) ? options.role : null });
        const added = `added ${email} to ${organization.name}${member.role ? ` as ${member.role}` : ''}${created ? ' (a new account)' : ''}\n`;
        const sent = mail ? await mail.send({ to: member.email ?? email, organization: organization.name, consoleUrl: mail.consoleUrl, invitedBy: undefined }) : { email_sent: false as const };
        if (sent.email_sent) return `${added}mailed the invitation to ${member.email ?? email} (sign in at ${mail?.consoleUrl}/login)\n`;
        notes(sent.email_error ?? 'no invitation mail: that needs SMTP_URL and WATCHKEEPER_AUTH=oidc (the person signs in at PUBLIC_URL/login through the provider)');
        return added;
      }
      case 'set-backend': {
        const [reference, url] = rest;
        if (!reference || !url) throw new CliError('org set-backend needs ORG and URL (or none)');
        if (options.direct && options.proxied) throw new CliError('--direct and --proxied: choose one');
        const organization = await findOrganization(pool, reference);
        const clear = url === 'none';
        const direct = options.direct ? true : options.proxied || clear ? false : undefined;
        const row = await updateOrganization(pool, organization.id, { backend_url: clear ? null : url, ...(direct !== undefined ? { direct } : {}) });
        return `${line(row)}\n`;
      }
      case 'platform-admin': {
        const [action, email] = rest;
        if (action === 'list') {
          const rows = await listPlatformAdmins(pool);
          return rows.length === 0 ? 'no platform administrators\n' : `${rows.map((row) => `${row.person_id}  ${row.email ?? row.name}`).join('\n')}\n`;
        }
        if ((action !== 'add' && action !== 'remove') || !email) throw new CliError('org platform-admin needs add EMAIL, remove EMAIL or list');
        if (action === 'add') {
          const { added } = await addPlatformAdmin(pool, email);
          return added ? `${email} is now a platform administrator\n` : `${email} is a platform administrator already\n`;
        }
        const { removed } = await removePlatformAdmin(pool, email);
        return removed ? `${email} is no longer a platform administrator\n` : `${email} was not a platform administrator\n`;
      }
      default:
        throw new CliError(`org needs a subcommand: create, list, invite, set-backend or platform-admin\n\n${ORG_USAGE}\n`);
    }
  } catch (error) {
    if (error instanceof AppError) throw new CliError(cliMessage(error));
    throw error;
  }
}
