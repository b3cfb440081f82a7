import {
  Activity,
  Archive,
  Bell,
  BellRing,
  Cloud,
  Container,
  Database,
  FolderOpen,
  GitBranch,
  Globe,
  HardDrive,
  KeyRound,
  Mail,
  MessageSquare,
  Monitor,
  Network,
  Plug,
  Search,
  Sparkles,
  Users,
  Webhook,
  Zap,
  type LucideIcon,
} from 'lucide-react';
import { connectionType, type ConnectionCategory } from '@common/connections';

const BY_CATEGORY: Record<ConnectionCategory, LucideIcon> = {
  Databases: Database,
  Notifications: Bell,
  Cloud: Cloud,
  AI: Sparkles,
  'Source control': GitBranch,
  Other: Plug,
};

/** Types whose own picture says more than their category's. */
const BY_TYPE: Readonly<Record<string, LucideIcon>> = {
  email: Mail,
  generic_webhook: Webhook,
  http: Globe,
  elasticsearch: Search,
  ldap: Users,
  kubernetes: Container,
  s3: HardDrive,
  gcs: HardDrive,
  aws_kms: KeyRound,
  azure_key_vault: KeyRound,
  gcp_kms: KeyRound,
  prometheus: Activity,
  dynatrace: Activity,
  restic: Archive,
  folder: FolderOpen,
  sftp: FolderOpen,
  smb: Network,
  windows: Monitor,
  ifttt: Zap,
  slack: MessageSquare,
  discord: MessageSquare,
  google_chat: MessageSquare,
  matrix: MessageSquare,
  mattermost: MessageSquare,
  rocketchat: MessageSquare,
  teams: MessageSquare,
  telegram: MessageSquare,
  zulip_chat: MessageSquare,
  ntfy: BellRing,
  opsgenie: BellRing,
  pushbullet: BellRing,
  pushover: BellRing,
};

/** The icon of a connection type: its own, else its category's, else a plug (an unknown type). */
export function connectionIcon(type: string): LucideIcon {
  const own = BY_TYPE[type];
  if (own) return own;
  const def = connectionType(type);
  return def ? BY_CATEGORY[def.category] : Plug;
}
