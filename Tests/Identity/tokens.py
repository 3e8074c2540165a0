"""ID tokens for Cairn's tests, made by other JWT implementations than the one that verifies
them: PyJWT signs RS256, joserfc signs ES256, and the forgeries are put together here from
their parts (signed with the same libraries' algorithms where a signature is needed).

    tokens.py keys DIR
        Writes an identity provider's keys into DIR: rsa.pem (kid rsa-1) and ec.pem (kid
        ec-1), whose public halves make DIR/jwks.json, and stranger.pem (kid rsa-9), which
        the key set does not hold. Prints the key set.
    tokens.py rotate DIR
        The provider rotates: a new RSA key, rotated.pem (kid rsa-2), joins the key set.
    tokens.py mint DIR CLAIMS [--alg RS256|ES256] [--kid KID] [--key rsa|ec|stranger|rotated]
                    [--forge KIND]
        Prints a token over the JSON object CLAIMS. KIND: none (alg none, no signature),
        hs256 (HS256 with the RSA public key as the HMAC secret), tampered (a valid token
        whose payload is swapped for CLAIMS with sub "u2"), duplicate-header, duplicate-payload
        (a key given twice, validly signed), base64 (a character base64url lacks), big (a
        claim of 20,000 bytes, validly signed).
"""
import base64
import hashlib
import hmac
import json
import os
import sys

import jwt
from cryptography.hazmat.primitives import serialization
from cryptography.hazmat.primitives.asymmetric import ec, rsa
from joserfc import jws, jwt as jose_jwt
from joserfc.jwk import ECKey
from jwt.algorithms import ECAlgorithm, RSAAlgorithm


def b64(data):
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def pem(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def keys(folder):
    os.makedirs(folder, exist_ok=True)
    made = {"rsa": rsa.generate_private_key(public_exponent=65537, key_size=2048),
            "ec": ec.generate_private_key(ec.SECP256R1()),
            "stranger": rsa.generate_private_key(public_exponent=65537, key_size=2048)}
    for name, key in made.items():
        with open(os.path.join(folder, name + ".pem"), "wb") as file:
            file.write(pem(key))
    public = []
    rsa_jwk = json.loads(RSAAlgorithm.to_jwk(made["rsa"].public_key()))
    rsa_jwk.update({"kid": "rsa-1", "alg": "RS256", "use": "sig"})
    public.append(rsa_jwk)
    ec_jwk = json.loads(ECAlgorithm.to_jwk(made["ec"].public_key()))
    ec_jwk.update({"kid": "ec-1", "alg": "ES256", "use": "sig"})
    public.append(ec_jwk)
    text = json.dumps({"keys": public}, indent=2)
    with open(os.path.join(folder, "jwks.json"), "w") as file:
        file.write(text + "\n")
    print(text)


def rotate(folder):
    key = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    with open(os.path.join(folder, "rotated.pem"), "wb") as file:
        file.write(pem(key))
    with open(os.path.join(folder, "jwks.json")) as file:
        keyset = json.load(file)
    public = json.loads(RSAAlgorithm.to_jwk(key.public_key()))
    public.update({"kid": "rsa-2", "alg": "RS256", "use": "sig"})
    keyset["keys"].append(public)
    with open(os.path.join(folder, "jwks.json"), "w") as file:
        file.write(json.dumps(keyset, indent=2) + "\n")


def load(folder, name):
    with open(os.path.join(folder, name + ".pem"), "rb") as file:
        return serialization.load_pem_private_key(file.read(), password=None)


def signed(header_bytes, payload_bytes, key, alg):
    """A token of these exact header and payload bytes, signed as alg."""
    signing_input = (b64(header_bytes) + "." + b64(payload_bytes)).encode()
    algorithm = RSAAlgorithm(RSAAlgorithm.SHA256) if alg == "RS256" else ECAlgorithm(ECAlgorithm.SHA256)
    return signing_input.decode() + "." + b64(algorithm.sign(signing_input, key))


def mint(folder, claims, alg="RS256", kid=None, key_name=None, forge=None):
    key_name = key_name or ("ec" if alg == "ES256" else "rsa")
    kid = kid or {"rsa": "rsa-1", "ec": "ec-1", "stranger": "rsa-9", "rotated": "rsa-2"}[key_name]
    key = load(folder, key_name)
    if forge == "none":
        header = {"alg": "none", "typ": "JWT", "kid": kid}
        return b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode()) + "."
    if forge == "hs256":
        secret = load(folder, "rsa").public_key().public_bytes(serialization.Encoding.PEM,
                                                               serialization.PublicFormat.SubjectPublicKeyInfo)
        header = {"alg": "HS256", "typ": "JWT", "kid": kid}
        signing_input = b64(json.dumps(header).encode()) + "." + b64(json.dumps(claims).encode())
        return signing_input + "." + b64(hmac.new(secret, signing_input.encode(), hashlib.sha256).digest())
    if forge == "duplicate-header":
        header = ('{"alg":"%s","kid":"%s","alg":"none"}' % (alg, kid)).encode()
        return signed(header, json.dumps(claims).encode(), key, alg)
    if forge == "duplicate-payload":
        text = json.dumps(claims)
        payload = (text[:-1] + ', "sub": "u2"}').encode()
        return signed(json.dumps({"alg": alg, "typ": "JWT", "kid": kid}).encode(), payload, key, alg)
    if forge == "big":
        claims = dict(claims, padding="x" * 20000)
    if alg == "ES256":
        token = jose_jwt.encode({"alg": "ES256", "typ": "JWT", "kid": kid}, claims,
                                ECKey.import_key(pem(key)))
    else:
        token = jwt.encode(claims, key, algorithm=alg, headers={"kid": kid})
    if forge == "tampered":
        header, _, signature = token.split(".")
        return header + "." + b64(json.dumps(dict(claims, sub="u2")).encode()) + "." + signature
    if forge == "base64":
        header, payload, signature = token.split(".")
        return header + "." + payload[:10] + "+" + payload[11:] + "." + signature
    return token


def main(arguments):
    if len(arguments) == 2 and arguments[0] == "keys":
        keys(arguments[1])
        return 0
    if len(arguments) == 2 and arguments[0] == "rotate":
        rotate(arguments[1])
        return 0
    if len(arguments) >= 3 and arguments[0] == "mint":
        folder, claims = arguments[1], json.loads(arguments[2])
        options = dict(zip(arguments[3::2], arguments[4::2]))
        unknown = set(options) - {"--alg", "--kid", "--key", "--forge"}
        if unknown or len(arguments[3:]) % 2:
            print("tokens.py: unknown options " + " ".join(sorted(unknown)), file=sys.stderr)
            return 2
        print(mint(folder, claims, alg=options.get("--alg", "RS256"), kid=options.get("--kid"),
                   key_name=options.get("--key"), forge=options.get("--forge")))
        return 0
    print(__doc__, file=sys.stderr)
    return 2


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
