// Password hashes of the console's people: scrypt at OWASP's cost with its parameters in the
// stored string, a fresh salt per hash, constant-time verification that never throws on a
// foreign string; hashes made with weaker parameters still verify and are marked for a rehash.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { DUMMY_PASSWORD_HASH, generatePassword, hashPassword, needsRehash, passwordProblem, SCRYPT_PARAMS, verifyPassword } from '../../src/auth/passwords.ts';

test('hash format, salts, verification', async () => {
  const a = await hashPassword('correct horse battery');
  const b = await hashPassword('correct horse battery');
  assert.match(a, /^\$scrypt\$ln=17,r=8,p=1\$[A-Za-z0-9+/]{22}\$[A-Za-z0-9+/]{43}$/);
  assert.notEqual(a, b, 'a fresh salt each time');
  assert.equal(await verifyPassword('correct horse battery', a), true);
  assert.equal(await verifyPassword('correct horse battery', b), true);
  assert.equal(await verifyPassword('correct horse batterY', a), false);
  assert.equal(await verifyPassword('', a), false);
  // Unicode: the same text in two normal forms is the same password.
  const nfc = await hashPassword('caf\u00e9 au lait!');
  assert.equal(await verifyPassword('cafe\u0301 au lait!', nfc), true);
});

test('a stored string that is not ours, or asks for absurd parameters, never matches and never throws', async () => {
  const good = await hashPassword('some password');
  for (const stored of ['', 'plain', good.replace('ln=17', 'ln=40'), good.replace('r=8', 'r=0'), good.replace('$scrypt$', '$argon2id$'), DUMMY_PASSWORD_HASH]) {
    assert.equal(await verifyPassword('some password', stored), false, stored);
  }
  // Parameters are read from the string: a hash made with other (valid) ones still verifies.
  const lower = good.replace('ln=17', 'ln=16');
  assert.equal(await verifyPassword('some password', lower), false, 'a different N derives a different key');
});

test('generated passwords and the length rule', () => {
  const p = generatePassword();
  assert.match(p, /^[A-Za-z0-9_-]{20}$/);
  assert.notEqual(generatePassword(), p);
  assert.equal(passwordProblem('short'), 'password: must be at least 10 characters');
  assert.equal(passwordProblem('x'.repeat(1025)), 'password: must be at most 1024 bytes');
  assert.equal(passwordProblem('long enough!'), undefined);
});

test('the cost is OWASP guidance for scrypt (N = 2^17, r = 8, p = 1), and the dummy hash costs as much', () => {
  assert.deepEqual({ ...SCRYPT_PARAMS }, { ln: 17, r: 8, p: 1 });
  assert.match(DUMMY_PASSWORD_HASH, /^\$scrypt\$ln=17,r=8,p=1\$/);
});

test('a hash made with the earlier, weaker parameters still verifies and needs a rehash; a current one does not', async () => {
  const old = await hashPassword('an older password', { ln: 15, r: 8, p: 1 });
  assert.match(old, /^\$scrypt\$ln=15,r=8,p=1\$/);
  assert.equal(await verifyPassword('an older password', old), true);
  assert.equal(await verifyPassword('another password', old), false);
  assert.equal(needsRehash(old), true);
  assert.equal(needsRehash(old.replace('r=8', 'r=4').replace('ln=15', 'ln=17')), true, 'less memory (r) is weaker too');
  assert.equal(needsRehash(await hashPassword('a current one')), false);
  assert.equal(needsRehash('not a hash'), false);
});
