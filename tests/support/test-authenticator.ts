import crypto from "node:crypto";

/**
 * A software WebAuthn authenticator for the passkey tests: an ES256 key
 * pair, "none" attestation, and assertions signed as a platform
 * authenticator would sign them (a browser cannot run here, so the
 * navigator.credentials calls are made by hand).
 */
type CborIn = number | string | Buffer | Map<number | string, CborIn>;

function head(major: number, n: number): Buffer {
  if (n < 24) return Buffer.from([(major << 5) | n]);
  if (n < 0x100) return Buffer.from([(major << 5) | 24, n]);
  const b = Buffer.alloc(3);
  b[0] = (major << 5) | 25;
  b.writeUInt16BE(n, 1);
  return b;
}

export function encodeCbor(v: CborIn): Buffer {
  if (typeof v === "number") return v >= 0 ? head(0, v) : head(1, -v - 1);
  if (typeof v === "string") return Buffer.concat([head(3, Buffer.byteLength(v)), Buffer.from(v)]);
  if (Buffer.isBuffer(v)) return Buffer.concat([head(2, v.length), v]);
  return Buffer.concat([head(5, v.size), ...[...v].flatMap(([k, x]) => [encodeCbor(k), encodeCbor(x)])]);
}

interface CreationOptions {
  challenge: string;
  user: { id: string };
}
interface RequestOptions {
  challenge: string;
}

export class TestAuthenticator {
  readonly credentialId = crypto.randomBytes(16);
  private readonly keys = crypto.generateKeyPairSync("ec", { namedCurve: "P-256" });
  private userHandle: string | null = null;
  private counter = 0;

  constructor(
    readonly rpId: string,
    readonly origin: string,
  ) {}

  private clientData(type: string, challenge: string, origin = this.origin) {
    return Buffer.from(JSON.stringify({ type, challenge, origin, crossOrigin: false }));
  }

  private rpIdHash(rpId = this.rpId) {
    return crypto.createHash("sha256").update(rpId).digest();
  }

  cosePublicKey(): Buffer {
    const jwk = this.keys.publicKey.export({ format: "jwk" });
    return encodeCbor(
      new Map<number, CborIn>([
        [1, 2],
        [3, -7],
        [-1, 1],
        [-2, Buffer.from(jwk.x!, "base64url")],
        [-3, Buffer.from(jwk.y!, "base64url")],
      ]),
    );
  }

  /** navigator.credentials.create(), as JSON; `tamper` changes what a test needs changed. */
  create(options: CreationOptions, tamper: { origin?: string; rpId?: string } = {}) {
    this.userHandle = options.user.id;
    const idLength = Buffer.alloc(2);
    idLength.writeUInt16BE(this.credentialId.length);
    const authData = Buffer.concat([
      this.rpIdHash(tamper.rpId),
      Buffer.from([0x01 | 0x04 | 0x40]),
      Buffer.alloc(4),
      Buffer.alloc(16),
      idLength,
      this.credentialId,
      this.cosePublicKey(),
    ]);
    const attestationObject = encodeCbor(
      new Map<string, CborIn>([
        ["fmt", "none"],
        ["attStmt", new Map()],
        ["authData", authData],
      ]),
    );
    const id = this.credentialId.toString("base64url");
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: this.clientData("webauthn.create", options.challenge, tamper.origin).toString("base64url"),
        attestationObject: attestationObject.toString("base64url"),
        transports: ["internal"],
      },
      clientExtensionResults: {},
    };
  }

  /** navigator.credentials.get(), as JSON. */
  get(options: RequestOptions) {
    if (!this.userHandle) throw new Error("create() first");
    this.counter += 1;
    const count = Buffer.alloc(4);
    count.writeUInt32BE(this.counter);
    const authData = Buffer.concat([this.rpIdHash(), Buffer.from([0x01 | 0x04]), count]);
    const clientData = this.clientData("webauthn.get", options.challenge);
    const signature = crypto.sign(
      "sha256",
      Buffer.concat([authData, crypto.createHash("sha256").update(clientData).digest()]),
      this.keys.privateKey,
    );
    const id = this.credentialId.toString("base64url");
    return {
      id,
      rawId: id,
      type: "public-key" as const,
      response: {
        clientDataJSON: clientData.toString("base64url"),
        authenticatorData: authData.toString("base64url"),
        signature: signature.toString("base64url"),
        userHandle: this.userHandle,
      },
      clientExtensionResults: {},
    };
  }
}
