// A push service on loopback for the tests: a browser's subscription keys
// made here (P-256 and an auth secret, as a browser makes them), each
// message the server posts kept, and decrypted as a browser would (RFC
// 8291 aes128gcm), to check what it says.

import { createECDH, createDecipheriv, hkdfSync, randomBytes } from 'node:crypto';
import { createServer } from 'node:http';

/** @param {Buffer} b */
const b64url = (b) => b.toString('base64').replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');

/**
 * A push receiver: its subscription (as `PushSubscription.toJSON()`), the
 * messages received (their headers and bodies), and what each says.
 * @returns {Promise<{subscription: {endpoint: string, keys: {p256dh: string, auth: string}}, received: {headers: import('node:http').IncomingHttpHeaders, body: Buffer}[], decrypt: (body: Buffer) => any, next: (ms?: number) => Promise<{headers: import('node:http').IncomingHttpHeaders, body: Buffer}>, close: () => void}>}
 */
export async function pushReceiver() {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const auth = randomBytes(16);
  /** @type {{headers: import('node:http').IncomingHttpHeaders, body: Buffer}[]} */
  const received = [];
  /** @type {(() => void)[]} */
  let waiting = [];
  const server = createServer((req, res) => {
    /** @type {Buffer[]} */
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      received.push({ headers: req.headers, body: Buffer.concat(chunks) });
      res.writeHead(201).end();
      waiting.forEach((w) => w());
      waiting = [];
    });
  });
  await new Promise((ok) => { server.listen(0, '127.0.0.1', () => ok(undefined)); });
  const address = /** @type {import('node:net').AddressInfo} */ (server.address());
  const publicKey = ecdh.getPublicKey();
  return {
    subscription: { endpoint: `http://127.0.0.1:${address.port}/push`, keys: { p256dh: b64url(publicKey), auth: b64url(auth) } },
    received,
    /** @param {Buffer} body */
    decrypt(body) {
      const salt = body.subarray(0, 16);
      const idlen = body[20];
      const senderKey = body.subarray(21, 21 + idlen);
      const sealed = body.subarray(21 + idlen);
      const secret = ecdh.computeSecret(senderKey);
      const info = Buffer.concat([Buffer.from('WebPush: info\0'), publicKey, senderKey]);
      const ikm = Buffer.from(hkdfSync('sha256', secret, auth, info, 32));
      const cek = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: aes128gcm\0'), 16));
      const nonce = Buffer.from(hkdfSync('sha256', ikm, salt, Buffer.from('Content-Encoding: nonce\0'), 12));
      const decipher = createDecipheriv('aes-128-gcm', cek, nonce);
      decipher.setAuthTag(sealed.subarray(sealed.length - 16));
      const plain = Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - 16)), decipher.final()]);
      // The last record ends with 0x02, then padding of zeros.
      let end = plain.length - 1;
      while (end > 0 && plain[end] === 0) end--;
      return JSON.parse(plain.subarray(0, end).toString());
    },
    /** The next message, waited for at most `ms`. @param {number} [ms] */
    next(ms = 5000) {
      const have = received.length;
      return new Promise((ok, fail) => {
        const timer = setTimeout(() => fail(new Error(`no push within ${ms} ms`)), ms);
        const look = () => {
          if (received.length > have) { clearTimeout(timer); ok(received[have]); } else waiting.push(look);
        };
        look();
      });
    },
    close() { server.close(); },
  };
}
