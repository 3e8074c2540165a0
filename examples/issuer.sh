# A test identity provider for the examples that sign users in (sourced after lib.sh): an RSA
# key made with openssl, its key set (the JWKS a provider publishes) in $idp/jwks.json, and
# `token UID [PROVIDER]`, an ID token of UID as Firebase Auth shapes one, valid for an hour,
# signed by openssl (RS256): another implementation than the one that verifies it.
#
#   issuer sign-in-example            # $issuer, $audience, $idp/jwks.json
#   CAIRN_TOKEN="$(token u1)"
issuer() {
    audience="$1"
    issuer="https://securetoken.google.com/$1"
    idp="$work/idp"
    mkdir -p "$idp"
    openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048 -out "$idp/key.pem" 2>/dev/null
    local modulus
    modulus="$(openssl rsa -in "$idp/key.pem" -noout -modulus | cut -d= -f2)"
    python3 - "$modulus" > "$idp/jwks.json" <<'PY'
import base64, json, sys
n = bytes.fromhex(sys.argv[1])
b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
print(json.dumps({"keys": [{"kty": "RSA", "kid": "test-1", "alg": "RS256", "use": "sig", "n": b64(n), "e": "AQAB"}]}))
PY
}

token() {
    local header payload signature
    header="$(printf '{"alg":"RS256","kid":"test-1","typ":"JWT"}' | basenc --base64url | tr -d '=\n')"
    payload="$(python3 -c 'import json, sys, time
now = int(time.time())
print(json.dumps({"iss": sys.argv[2], "aud": sys.argv[4], "sub": sys.argv[1], "iat": now, "exp": now + 3600,
                  "firebase": {"sign_in_provider": sys.argv[3]}}, separators=(",", ":")), end="")' "$1" "$issuer" "${2:-password}" "$audience" \
        | basenc --base64url | tr -d '=\n')"
    signature="$(printf '%s.%s' "$header" "$payload" | openssl dgst -sha256 -sign "$idp/key.pem" | basenc --base64url | tr -d '=\n')"
    printf '%s.%s.%s' "$header" "$payload" "$signature"
}
