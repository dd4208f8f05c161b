"""A software WebAuthn authenticator and browser for the tests: real P-256 keys, real signatures.

It answers the options the server sends the way a browser with a platform authenticator would: a "none"
attestation (CBOR attestation object around authenticator data holding the credential's COSE public key) for
`create`, and an assertion (authenticator data, the client data, an ECDSA signature over
authenticatorData || SHA-256(clientDataJSON)) for `get`. Every field a test may want to get wrong is a keyword.
"""

from __future__ import annotations

import hashlib
import json
import os
import struct
from dataclasses import dataclass, field
from typing import Any

import cbor2
from cryptography.hazmat.primitives import hashes
from cryptography.hazmat.primitives.asymmetric import ec
from webauthn.helpers import base64url_to_bytes, bytes_to_base64url

USER_PRESENT = 0x01
USER_VERIFIED = 0x04
ATTESTED_DATA = 0x40
AAGUID = bytes(range(16))


def _b64(data: bytes) -> str:
    return bytes_to_base64url(data)


@dataclass
class Credential:
    """One passkey inside the authenticator: its id, private key, user handle and counter."""

    credential_id: bytes
    key: ec.EllipticCurvePrivateKey
    user_handle: bytes
    sign_count: int = 0

    @property
    def id(self) -> str:
        return _b64(self.credential_id)

    def cose_public_key(self) -> bytes:
        numbers = self.key.public_key().public_numbers()
        return cbor2.dumps({1: 2, 3: -7, -1: 1, -2: numbers.x.to_bytes(32, "big"), -3: numbers.y.to_bytes(32, "big")})


@dataclass
class SoftwareAuthenticator:
    """Counts signatures by `step` (0: never counts, like synced passkeys)."""

    step: int = 1
    credentials: list[Credential] = field(default_factory=list)

    @staticmethod
    def _authenticator_data(rp_id: str, flags: int, sign_count: int, attested: bytes = b"") -> bytes:
        return hashlib.sha256(rp_id.encode()).digest() + bytes([flags]) + struct.pack(">I", sign_count) + attested

    @staticmethod
    def _client_data(kind: str, challenge: str, origin: str, cross_origin: bool = False) -> bytes:
        fields = {"type": kind, "challenge": challenge, "origin": origin, "crossOrigin": cross_origin}
        return json.dumps(fields).encode()

    def create(
        self,
        options_json: str,
        origin: str,
        *,
        rp_id: str | None = None,
        verified: bool = True,
        challenge: str | None = None,
        credential_id: bytes | None = None,
    ) -> tuple[Credential, str]:
        """navigator.credentials.create(): a new credential and the registration response as JSON."""
        options: dict[str, Any] = json.loads(options_json)
        credential = Credential(
            credential_id or os.urandom(32), ec.generate_private_key(ec.SECP256R1()),
            base64url_to_bytes(options["user"]["id"]),
        )  # fmt: skip
        attested = (
            AAGUID + struct.pack(">H", len(credential.credential_id)) + credential.credential_id
            + credential.cose_public_key()
        )  # fmt: skip
        flags = USER_PRESENT | ATTESTED_DATA | (USER_VERIFIED if verified else 0)
        data = self._authenticator_data(rp_id or options["rp"]["id"], flags, credential.sign_count, attested)
        client_data = self._client_data("webauthn.create", challenge or options["challenge"], origin)
        attestation = cbor2.dumps({"fmt": "none", "attStmt": {}, "authData": data})
        self.credentials.append(credential)
        response = {
            "id": credential.id,
            "rawId": credential.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(client_data),
                "attestationObject": _b64(attestation),
                "transports": ["internal", "hybrid"],
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
        return credential, json.dumps(response)

    def get(
        self,
        options_json: str,
        origin: str,
        credential: Credential,
        *,
        rp_id: str | None = None,
        verified: bool = True,
        present: bool = True,
        cross_origin: bool = False,
        sign_count: int | None = None,
        signing_key: ec.EllipticCurvePrivateKey | None = None,
        claimed_id: str | None = None,
        user_handle: bytes | None = None,
    ) -> str:
        """navigator.credentials.get() with `credential`: the assertion as JSON. `signing_key` forges (signs with
        another key), `claimed_id` names another credential, `sign_count` overrides the counter."""
        options: dict[str, Any] = json.loads(options_json)
        if sign_count is None:
            credential.sign_count += self.step
            sign_count = credential.sign_count
        flags = (USER_PRESENT if present else 0) | (USER_VERIFIED if verified else 0)
        data = self._authenticator_data(rp_id or options["rpId"], flags, sign_count)
        client_data = self._client_data("webauthn.get", options["challenge"], origin, cross_origin)
        signature = (signing_key or credential.key).sign(
            data + hashlib.sha256(client_data).digest(), ec.ECDSA(hashes.SHA256())
        )
        response = {
            "id": claimed_id or credential.id,
            "rawId": claimed_id or credential.id,
            "type": "public-key",
            "response": {
                "clientDataJSON": _b64(client_data),
                "authenticatorData": _b64(data),
                "signature": _b64(signature),
                "userHandle": _b64(user_handle if user_handle is not None else credential.user_handle),
            },
            "clientExtensionResults": {},
            "authenticatorAttachment": "platform",
        }
        return json.dumps(response)
