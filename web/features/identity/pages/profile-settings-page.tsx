import { ArrowLeft } from 'lucide-react';
import type { ReactNode } from 'react';
import { Link, useSearchParams } from 'react-router';
import { Page } from '@web/app/layout/page';
import { buttonBase } from '@web/ui/primitives/button';
import { cn } from '@web/ui/primitives/cn';
import type { GroupForm } from '../components/flow-forms';
import { FlowView } from '../components/flow-view';
import { safeReturnPath } from '../kratos/follow';
import { useFlow } from '../kratos/use-flow';

/** Spec §2 sections of /profile-settings, each showing the forms of its method groups. */
export const SETTINGS_SECTIONS: readonly { title: string; groups: readonly string[] }[] = [
  { title: 'Profile Settings', groups: ['profile'] },
  { title: 'Change Password', groups: ['password'] },
  { title: 'Manage Social Sign In', groups: ['oidc'] },
  { title: 'Manage 2FA Backup Recovery Codes', groups: ['lookup_secret'] },
  { title: 'Manage 2FA TOTP Authenticator App', groups: ['totp'] },
  { title: 'Manage Hardware Tokens and Biometrics', groups: ['webauthn', 'passkey'] },
];

const SUBTITLES: Record<string, string> = {
  webauthn: 'Security keys (second factor)',
  passkey: 'Passkeys (sign in without a password)',
};

function Section({ title, children }: { title: string; children: ReactNode }) {
  const id = `section-${title.toLowerCase().replace(/[^a-z0-9]+/g, '-')}`;
  return (
    <section aria-labelledby={id} className="rounded-lg border border-slate-200 bg-white p-5 shadow-sm">
      <h2 id={id} className="mb-4 text-base font-semibold text-slate-900">
        {title}
      </h2>
      {children}
    </section>
  );
}

/** Arranges the group forms into the spec's sections; groups the spec does not name follow at the end. */
export function sectionLayout(forms: GroupForm[]): ReactNode {
  const known = new Set(SETTINGS_SECTIONS.flatMap((section) => section.groups));
  const sections = SETTINGS_SECTIONS.map((section) => ({ title: section.title, forms: forms.filter((form) => section.groups.includes(form.group)) }));
  const others = forms.filter((form) => !known.has(form.group) && form.group !== 'default');
  return (
    <div className="flex flex-col gap-5">
      {sections
        .filter((section) => section.forms.length > 0)
        .map((section) => (
          <Section key={section.title} title={section.title}>
            <div className="flex flex-col gap-6">
              {section.forms.map((form) => (
                <div key={form.group} className="flex flex-col gap-3">
                  {SUBTITLES[form.group] && section.forms.length > 1 ? <h3 className="text-sm font-medium text-slate-700">{SUBTITLES[form.group]}</h3> : null}
                  {form.element}
                </div>
              ))}
            </div>
          </Section>
        ))}
      {others.map((form) => (
        <Section key={form.group} title={form.group}>
          {form.element}
        </Section>
      ))}
    </div>
  );
}

/**
 * /profile-settings (spec §2): the signed-in person's settings flow. A change that needs a recent sign-in
 * sends them to confirm (login with refresh) and back here with the same flow.
 */
export default function ProfileSettingsPage() {
  const [params] = useSearchParams();
  const controller = useFlow('settings', ['return_to']);
  const back = safeReturnPath(params.get('return_to')) ?? safeReturnPath(controller.flow?.return_to) ?? '/';
  return (
    <Page
      title="Profile Settings"
      extra={
        <Link to={back} className={cn(buttonBase, 'ml-auto h-8 gap-1.5 border border-slate-300 bg-white px-3 text-sm text-slate-800 shadow-sm hover:bg-slate-50')}>
          <ArrowLeft className="size-4" aria-hidden="true" />
          Go back
        </Link>
      }
    >
      <div className="mx-auto w-full max-w-2xl">
        {/* Sticky: a save at the bottom of the page still shows its outcome. */}
        <FlowView controller={controller} layout={sectionLayout} messagesClassName="sticky top-16 z-10 mb-5 shadow-sm" />
      </div>
    </Page>
  );
}
