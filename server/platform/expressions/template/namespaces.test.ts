import { describe, expect, it } from 'vitest';
import { ExpressionError } from '../errors';
import { renderTemplate } from '../template';

const where = 'display.template';
const render = (template: string, variables: Record<string, unknown> = {}) => renderTemplate(where, template, variables);
function failure(template: string, variables: Record<string, unknown> = {}): ExpressionError {
  try {
    render(template, variables);
  } catch (error) {
    if (error instanceof ExpressionError) return error;
    throw error;
  }
  throw new Error(`${template} rendered`);
}

describe('gomplate data: TOML', () => {
  const doc = 'title = "api"\nports = [80, 443]\n[owner]\nname = "ops"\nsince = 1979-05-27T07:32:00Z\n';

  it('toml / data.TOML read a document as a map (integers int64, datetimes time.Time)', () => {
    expect(render('{{ $t := toml .doc }}{{ $t.title }} {{ index $t.ports 1 }} {{ $t.owner.name }} {{ $t.owner.since.Year }}', { doc })).toBe('api 443 ops 1979');
    expect(render('{{ (data.TOML .doc).title }}', { doc })).toBe('api');
    expect(failure('{{ toml "a = " }}').reason).toMatch(/error calling toml: Unable to unmarshal object a = : Invalid TOML document/);
  });

  it('toTOML / data.ToTOML write a map as TOML', () => {
    expect(render('{{ toTOML .m }}', { m: { name: 'api', port: 8080, owner: { team: 'ops' } } })).toBe('name = "api"\nport = 8080\n\n[owner]\nteam = "ops"\n');
    expect(render('{{ (toml (data.ToTOML .m)).owner.team }}', { m: { owner: { team: 'ops' } } })).toBe('ops');
    expect(failure('{{ toTOML "x" }}').reason).toMatch(/top-level values must be Go maps/);
  });
});

describe('gomplate random', () => {
  it('draws from the documented sets and ranges', () => {
    expect(render('{{ random.ASCII 20 }}')).toMatch(/^[ -~]{20}$/);
    expect(render('{{ random.Alpha 12 }}')).toMatch(/^[A-Za-z]{12}$/);
    expect(render('{{ random.AlphaNum 12 }}')).toMatch(/^[A-Za-z0-9]{12}$/);
    expect(render('{{ random.String 16 }}')).toMatch(/^[-.0-9A-Z_a-z]{16}$/);
    expect(render('{{ random.String 8 "[a-c]" }}')).toMatch(/^[a-c]{8}$/);
    expect(render('{{ random.String 8 "a" "c" }}')).toMatch(/^[a-c]{8}$/);
    expect(render('{{ random.String 8 48 57 }}')).toMatch(/^[0-9]{8}$/);
    expect(render('{{ random.Item (slice "x" "y") }}')).toMatch(/^[xy]$/);
    const number = Number(render('{{ random.Number 5 7 }}'));
    expect(number >= 5 && number <= 7 && Number.isInteger(number)).toBe(true);
    expect(Number(render('{{ random.Number }}'))).toBeLessThanOrEqual(100);
    const float = Number(render('{{ random.Float 2 3 }}'));
    expect(float >= 2 && float < 3).toBe(true);
  });

  it('fails as gomplate does', () => {
    expect(failure('{{ random.String 0 }}').reason).toMatch(/count must be greater than 0/);
    expect(failure('{{ random.Number 9 1 }}').reason).toMatch(/min must not be greater than max \(was 9, 1\)/);
    expect(failure('{{ random.Item (slice) }}').reason).toMatch(/expected a non-empty array or slice/);
  });
});

describe('gomplate net (flanksource/gomplate: ContainsCIDR and IsValidIP, no lookups)', () => {
  it('checks addresses and CIDR membership', () => {
    expect(render('{{ net.IsValidIP "10.0.0.1" }} {{ net.IsValidIP "::1" }} {{ net.IsValidIP "10.0.0.300" }} {{ net.IsValidIP "host" }}')).toBe('true true false false');
    expect(render('{{ net.ContainsCIDR "10.0.0.0/8" "10.1.2.3" }} {{ net.ContainsCIDR "10.0.0.0/8" "11.0.0.1" }} {{ net.ContainsCIDR "fd00::/8" "fd12::1" }}')).toBe('true false true');
    expect(render('{{ net.ContainsCIDR "10.0.0.0/8" "::ffff:10.0.0.1" }} {{ net.ContainsCIDR "nonsense" "10.0.0.1" }} {{ net.ContainsCIDR "10.0.0.0/8" "fd00::1" }}')).toBe('true false false');
  });
});

describe('refused by design', () => {
  it('says why env, file, sockaddr and the like are refused', () => {
    expect(failure('{{ env.Getenv "HOME" }}').reason).toBe('function "env" is refused by design: it reads the server\'s environment variables');
    expect(failure('{{ getenv "HOME" }}').reason).toBe('function "getenv" is refused by design: it reads the server\'s environment variables');
    expect(failure('{{ file.Read "/etc/passwd" }}').reason).toBe('function "file" is refused by design: it reads and writes the server\'s files');
    expect(failure('{{ sockaddr.GetPrivateIP }}').reason).toBe('function "sockaddr" is refused by design: it reads the server\'s network interfaces and addresses');
    expect(failure('{{ datasource "x" }}').reason).toMatch(/refused by design: it reads files and URLs from the server/);
    expect(failure('{{ nosuch }}').reason).toBe('function "nosuch" not defined');
  });
});
