import { describe, expect, it } from 'vitest';
import { classifyAddress } from '../../../src/lib/webhooks/address-ranges.ts';
import { checkCallbackUrl, checkCallbackUrlForm, createGuardedLookup, silentRepair } from '../../../src/lib/webhooks/callback-url.ts';
import type { CallbackUrlPolicy, HostResolver } from '../../../src/lib/webhooks/callback-url.ts';

const DNS: Record<string, string[]> = {
  'hooks.example.com': ['93.184.215.14', '2606:2800:21f:cb07:6820:80da:af6b:8b2c'],
  'rebind.example.com': ['93.184.215.14', '10.0.0.7'],
  'metadata.example.com': ['169.254.169.254'],
  'v6-private.example.com': ['fd12:3456::1'],
  'mapped.example.com': ['::ffff:127.0.0.1'],
  'nothing.example.com': [],
  'garbage.example.com': ['not-an-ip'],
};

const resolveFromTable: HostResolver = async (hostname) => {
  const addresses = DNS[hostname];
  if (addresses === undefined) throw Object.assign(new Error(`getaddrinfo ENOTFOUND ${hostname}`), { code: 'ENOTFOUND' });
  return addresses;
};

const policy: CallbackUrlPolicy = { resolveHost: resolveFromTable };

describe('classifyAddress', () => {
  it.each([
    ['8.8.8.8', 'public'],
    ['93.184.215.14', 'public'],
    ['100.63.255.255', 'public'],
    ['100.128.0.0', 'public'],
    ['172.15.255.255', 'public'],
    ['172.32.0.0', 'public'],
    ['2606:4700:4700::1111', 'public'],
    ['::ffff:8.8.8.8', 'public'],
    ['64:ff9b::808:808', 'public'],
    ['127.0.0.1', 'loopback'],
    ['127.255.255.254', 'loopback'],
    ['::1', 'loopback'],
    ['[::1]', 'loopback'],
    ['0:0:0:0:0:0:0:1', 'loopback'],
    ['10.0.0.1', 'private'],
    ['172.16.0.1', 'private'],
    ['172.31.255.255', 'private'],
    ['192.168.1.1', 'private'],
    ['fc00::1', 'private'],
    ['fd12:3456::1', 'private'],
    ['fec0::1', 'private'],
    ['169.254.169.254', 'link-local'],
    ['fe80::1', 'link-local'],
    ['fe80::1%eth0', 'link-local'],
    ['100.64.0.1', 'shared (CGNAT)'],
    ['100.127.255.255', 'shared (CGNAT)'],
    ['0.0.0.0', 'unspecified'],
    ['0.1.2.3', 'unspecified'],
    ['::', 'unspecified'],
    ['224.0.0.1', 'multicast'],
    ['ff02::1', 'multicast'],
    ['255.255.255.255', 'broadcast'],
    ['240.0.0.1', 'reserved'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['2001:db8::1', 'reserved'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'reserved'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:7f00:1', 'loopback'],
    ['::ffff:10.1.2.3', 'private'],
    ['::ffff:a9fe:a9fe', 'link-local'],
    ['::127.0.0.1', 'loopback'],
    ['::7f00:1', 'loopback'],
    ['::a00:1', 'private'],
    ['64:ff9b::127.0.0.1', 'loopback'],
    ['64:ff9b::a00:1', 'private'],
    ['64:ff9b:1::1', 'private'],
    ['2002:c0a8:101::1', 'private'],
    ['2002:808:808::1', 'public'],
    ['4000::1', 'reserved'],
  ])('classifies %s as %s', (address, expected) => {
    expect(classifyAddress(address)).toBe(expected);
  });
});

describe('checkCallbackUrl', () => {
  it.each([
    ['https://hooks.example.com/webhooks/garment', 'allowed'],
    ['https://HOOKS.Example.COM./path?q=1#frag', 'allowed'],
    ['https://hooks.example.com:8443/hook', 'allowed'],
    ['https://93.184.215.14/hook', 'allowed'],
    ['https://[2606:2800:21f:cb07:6820:80da:af6b:8b2c]/hook', 'allowed'],
    ['https://[::ffff:93.184.215.14]/hook', 'allowed'],
    ['/relative/path', 'not an absolute URL'],
    ['hooks.example.com/hook', 'not an absolute URL'],
    ['', 'not an absolute URL'],
    ['https://', 'not an absolute URL'],
    ['http://hooks.example.com/hook', 'scheme must be https, got http'],
    ['HTTP://hooks.example.com/hook', 'scheme must be https, got http'],
    ['ftp://hooks.example.com/hook', 'scheme must be https, got ftp'],
    ['javascript:alert(1)', 'scheme must be https, got javascript'],
    ['https://user:pass@hooks.example.com/hook', 'credentials (user:password@) are not allowed'],
    ['https://user@hooks.example.com/hook', 'credentials (user:password@) are not allowed'],
    // An empty user name and password are still credentials written in the URL, which parsing drops without a word.
    ['https://@hooks.example.com/hook', 'credentials (user:password@) are not allowed'],
    ['https://:@hooks.example.com/hook', 'credentials (user:password@) are not allowed'],
    ['https://localhost/hook', 'host localhost is loopback'],
    ['https://LOCALHOST./hook', 'host localhost is loopback'],
    ['https://api.localhost/hook', 'host api.localhost is loopback'],
    ['https://127.0.0.1/hook', 'address 127.0.0.1 is loopback'],
    ['https://127.1/hook', 'address 127.0.0.1 is loopback'],
    ['https://2130706433/hook', 'address 127.0.0.1 is loopback'],
    ['https://0177.0.0.1/hook', 'address 127.0.0.1 is loopback'],
    ['https://0x7f.1/hook', 'address 127.0.0.1 is loopback'],
    ['https://0x7f000001/hook', 'address 127.0.0.1 is loopback'],
    ['https://127.0.0.1./hook', 'address 127.0.0.1 is loopback'],
    ['https://%31%32%37.0.0.1/hook', 'address 127.0.0.1 is loopback'],
    ['https://[::1]/hook', 'address ::1 is loopback'],
    ['https://[0:0:0:0:0:0:0:1]/hook', 'address ::1 is loopback'],
    ['https://[::ffff:127.0.0.1]/hook', 'address ::ffff:7f00:1 is loopback'],
    ['https://[::ffff:7f00:1]/hook', 'address ::ffff:7f00:1 is loopback'],
    ['https://[::127.0.0.1]/hook', 'address ::7f00:1 is loopback'],
    ['https://[64:ff9b::10.0.0.1]/hook', 'address 64:ff9b::a00:1 is private'],
    ['https://10.0.0.1/hook', 'address 10.0.0.1 is private'],
    ['https://012.0.0.1/hook', 'address 10.0.0.1 is private'],
    ['https://167772161/hook', 'address 10.0.0.1 is private'],
    ['https://172.16.5.4/hook', 'address 172.16.5.4 is private'],
    ['https://192.168.0.10/hook', 'address 192.168.0.10 is private'],
    ['https://0xc0.0xa8.0.1/hook', 'address 192.168.0.1 is private'],
    ['https://[fd00::1]/hook', 'address fd00::1 is private'],
    ['https://[::ffff:192.168.1.1]/hook', 'address ::ffff:c0a8:101 is private'],
    ['https://169.254.169.254/latest/meta-data/', 'address 169.254.169.254 is link-local'],
    ['https://[fe80::1]/hook', 'address fe80::1 is link-local'],
    ['https://[::ffff:169.254.169.254]/hook', 'address ::ffff:a9fe:a9fe is link-local'],
    ['https://100.64.0.1/hook', 'address 100.64.0.1 is shared (CGNAT)'],
    ['https://0.0.0.0/hook', 'address 0.0.0.0 is unspecified'],
    ['https://0/hook', 'address 0.0.0.0 is unspecified'],
    ['https://[::]/hook', 'address :: is unspecified'],
    ['https://224.0.0.1/hook', 'address 224.0.0.1 is multicast'],
    ['https://255.255.255.255/hook', 'address 255.255.255.255 is broadcast'],
    ['https://db.internal/hook', 'host db.internal is a private name (.internal)'],
    ['https://metadata.google.INTERNAL./computeMetadata', 'host metadata.google.internal is a private name (.internal)'],
    ['https://printer.local/hook', 'host printer.local is a private name (.local)'],
    ['https://PRINTER.LOCAL./hook', 'host printer.local is a private name (.local)'],
    ['https://nas.home.arpa/hook', 'host nas.home.arpa is a private name (.home.arpa)'],
    ['https://intranet/hook', 'host intranet is not a fully qualified domain name'],
    ['https://rebind.example.com/hook', 'host rebind.example.com resolves to 10.0.0.7, which is private'],
    ['https://metadata.example.com/hook', 'host metadata.example.com resolves to 169.254.169.254, which is link-local'],
    ['https://v6-private.example.com/hook', 'host v6-private.example.com resolves to fd12:3456::1, which is private'],
    ['https://mapped.example.com/hook', 'host mapped.example.com resolves to ::ffff:127.0.0.1, which is loopback'],
    ['https://garbage.example.com/hook', 'host garbage.example.com resolves to something that is not an IP address'],
  ])('%s → %s', async (url, expected) => {
    const check = await checkCallbackUrl(url, policy);
    expect(check.allowed ? 'allowed' : check.reason).toBe(expected);
  });

  it('refuses loopback unless the policy explicitly allows it', async () => {
    const local = { resolveHost: async () => ['127.0.0.1', '::1'] };
    expect((await checkCallbackUrl('https://localhost:8443/hook', local)).allowed).toBe(false);
    expect((await checkCallbackUrl('https://localhost:8443/hook', { ...local, allowLoopback: true })).allowed).toBe(true);
    expect((await checkCallbackUrl('https://[::1]/hook', { allowLoopback: true })).allowed).toBe(true);
  });

  it('still refuses private addresses when loopback is allowed', async () => {
    const check = await checkCallbackUrl('https://10.0.0.1/hook', { allowLoopback: true });
    expect(check).toEqual({ allowed: false, reason: 'address 10.0.0.1 is private' });
  });
});

describe('checkCallbackUrl of a name that does not resolve now', () => {
  // Spec section 2.1 refuses https-less, loopback and private hosts only; a lookup may fail for a while.
  it.each([
    ['https://unknown.example.com/hook', 'could not resolve host unknown.example.com (ENOTFOUND)'],
    ['https://nothing.example.com/hook', 'host nothing.example.com resolves to no address'],
  ])('allows %s, saying why it is unresolved', async (url, unresolved) => {
    expect(await checkCallbackUrl(url, policy)).toEqual({ allowed: true, url: new URL(url), unresolved });
  });

  it('allows a resolved public name with nothing to say', async () => {
    expect(await checkCallbackUrl('https://hooks.example.com/hook', policy)).toEqual({
      allowed: true,
      url: new URL('https://hooks.example.com/hook'),
    });
  });
});

describe('checkCallbackUrlForm', () => {
  it('allows a public host name without resolving it', () => {
    const check = checkCallbackUrlForm('https://unknown.example.com/hook', {
      resolveHost: () => {
        throw new Error('must not resolve');
      },
    });
    expect(check.allowed).toBe(true);
  });
});

describe('silentRepair (issue 25: a callback URL is taken as written or refused)', () => {
  it.each([
    [' https://hooks.example.com/x', 'starts with whitespace or a control character; remove it'],
    ['https://hooks.example.com/x\n', 'ends with whitespace or a control character; remove it'],
    ['https://hooks.example.com/a\tb', 'holds a control character (U+0009) at index 27, which URL parsing would drop or encode; remove it'],
    [
      'https://hooks.example.com/a\u0085b',
      'holds a control character (U+0085) at index 27, which URL parsing would drop or encode; remove it',
    ],
    ['https://hooks.example.com/a b', 'holds a space at index 27; percent-encode it as %20'],
    ['https://hooks.example.com\\x', 'holds a backslash, which URL parsing reads as /; write / or %5C'],
    ['https:hooks.example.com/x', 'expected // after https:'],
    ['HTTPS:/hooks.example.com/x', 'expected // after HTTPS:'],
    ['https:///hooks.example.com/x', 'expected a host after https://, got another /'],
    ['https://hooks.example.com/caf\u00e9', 'holds "é" at index 29, which URL parsing would percent-encode; encode it yourself'],
    ['https://hooks.example.com/x?a="b"', 'holds "\\"" at index 30, which URL parsing would percent-encode; encode it yourself'],
    ['https://hooks.example.com/50%', 'holds a % at index 28 that starts no %XX escape; write it as %25'],
    // In a query, an https URL's quote is percent-encoded; in a path it is not.
    ["https://hooks.example.com/x?a='b'", 'holds "\'" at index 30, which URL parsing would percent-encode; encode it yourself'],
    ['https://hooks.example.com/x#`', 'holds "`" at index 28, which URL parsing would percent-encode; encode it yourself'],
    [
      'https://hooks.example.com/a/../b',
      '"/a/../b" after the host holds dot segments (. or ..) that URL parsing resolves, sending "/b"; write that',
    ],
    [
      'https://hooks.example.com/a/%2e%2E/b',
      '"/a/%2e%2E/b" after the host holds dot segments (. or ..) that URL parsing resolves, sending "/b"; write that',
    ],
  ])('refuses %j', (url, reason) => {
    expect(silentRepair(url)).toBe(reason);
    expect(checkCallbackUrlForm(url)).toEqual({ allowed: false, reason });
  });

  it.each([
    'https://hooks.example.com/x?a=1&b=%20#frag',
    'https://HOOKS.example.com:443/x',
    'https://bücher.example/hook',
    'https://hooks.example.com/a|b',
    "https://hooks.example.com/it's",
    'https://hooks.example.com/x?q={a}^`',
    'https://hooks.example.com',
    'https://hooks.example.com?x=1',
  ])('takes %j as written (what parsing changes there is the same address)', (url) => {
    expect(silentRepair(url)).toBeUndefined();
    expect(checkCallbackUrlForm(url).allowed).toBe(true);
  });

  it('refuses an IPv4 host in a short or hexadecimal form, naming the address it stands for', () => {
    expect(checkCallbackUrlForm('https://8.8.2056/x')).toEqual({
      allowed: false,
      reason: 'host 8.8.2056 is an unusual IPv4 form that URL parsing reads as 8.8.8.8; write 8.8.8.8',
    });
    expect(checkCallbackUrlForm('https://0x8.8.8.8/x')).toEqual({
      allowed: false,
      reason: 'host 0x8.8.8.8 is an unusual IPv4 form that URL parsing reads as 8.8.8.8; write 8.8.8.8',
    });
  });
});

describe('createGuardedLookup', () => {
  const lookUp = (hostname: string, options: { all?: boolean; family?: number }, guardPolicy: CallbackUrlPolicy) =>
    new Promise<{ error: NodeJS.ErrnoException | null; address: unknown; family?: number }>((resolve) => {
      createGuardedLookup(guardPolicy)(hostname, options, (error, address, family) => resolve({ error, address, family }));
    });

  it('answers a socket lookup with every address when all are public', async () => {
    const answer = await lookUp('hooks.example.com', { all: true }, policy);
    expect(answer.error).toBeNull();
    expect(answer.address).toEqual([
      { address: '93.184.215.14', family: 4 },
      { address: '2606:2800:21f:cb07:6820:80da:af6b:8b2c', family: 6 },
    ]);
  });

  it('answers a single-address lookup in the requested family', async () => {
    const answer = await lookUp('hooks.example.com', { family: 6 }, policy);
    expect([answer.address, answer.family]).toEqual(['2606:2800:21f:cb07:6820:80da:af6b:8b2c', 6]);
  });

  it('fails the connection when any resolved address is private', async () => {
    const answer = await lookUp('rebind.example.com', { all: true }, policy);
    expect(answer.error?.message).toBe('callback URL refused: host rebind.example.com resolves to 10.0.0.7, which is private');
  });

  it('fails the connection when the name does not resolve (the check let it through)', async () => {
    expect((await lookUp('unknown.example.com', { all: true }, policy)).error?.message).toBe(
      'callback URL refused: could not resolve host unknown.example.com (ENOTFOUND)',
    );
    expect((await lookUp('nothing.example.com', { all: true }, policy)).error?.message).toBe(
      'callback URL refused: host nothing.example.com resolves to no address',
    );
  });
});
