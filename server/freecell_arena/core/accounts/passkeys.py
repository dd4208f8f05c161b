"""The WebAuthn ceremonies: save a player with a passkey (registration), sign in with one (authentication).

Plain logic on top of py_webauthn (`webauthn`), clock passed in, no I/O: the adapter reads what a step needs
from the `AccountStore` (the challenge it takes, the passkey the response names), calls a function here, and
writes the records it returns. A refused ceremony raises `PasskeyRefused` with a stable `reason` and a message
for the person, and returns no record: nothing changes but the challenge, which was taken (single use: a
refused answer spends it, and a new ceremony starts with a new challenge).

What each step checks, before py_webauthn checks everything again (its word is final: the checks here exist
to name the reason, its own errors are only strings):
- the challenge: issued by us (the store had it), for this ceremony, not expired, for this player;
- the client data: the ceremony type, an origin of ours, not inside another site's frame;
- the authenticator data: our RP ID's hash, the user present and verified (`user_verification: required` is
  asked for and then enforced);
- registration: a credential id nobody holds; authentication: a known credential, the player's own when the
  ceremony was for a player, the user handle its owner's, a sign count that went up unless both are 0 (an
  authenticator that counts never repeats a count; one that does not, like synced passkeys, always says 0), and
  the signature over authenticatorData || SHA-256(clientDataJSON) with the stored public key.
"""

from __future__ import annotations

import hashlib
import json
import secrets
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum
from typing import NoReturn

from webauthn import (
    generate_authentication_options,
    generate_registration_options,
    options_to_json,
    verify_authentication_response,
    verify_registration_response,
)
from webauthn.helpers import (
    base64url_to_bytes,
    bytes_to_base64url,
    parse_attestation_object,
    parse_authentication_credential_json,
    parse_authenticator_data,
    parse_client_data_json,
    parse_registration_credential_json,
)
from webauthn.helpers.exceptions import WebAuthnException
from webauthn.helpers.structs import (
    AttestationConveyancePreference,
    AuthenticatorData,
    AuthenticatorSelectionCriteria,
    AuthenticatorTransport,
    ClientDataType,
    CollectedClientData,
    PublicKeyCredentialDescriptor,
    ResidentKeyRequirement,
    UserVerificationRequirement,
)

from freecell_arena.core.accounts.account_ports import (
    Ceremony,
    ChallengeRecord,
    PasskeyRecord,
    PasskeyUsedRecord,
    passkey_name,
)
from freecell_arena.core.accounts.relying_party import RelyingParty

CHALLENGE_BYTES = 32
CHALLENGE_TTL = timedelta(minutes=5)
"""How long a challenge waits for its answer; the browser is asked to give up sooner (`BROWSER_TIMEOUT_MS`)."""
BROWSER_TIMEOUT_MS = 180_000
USER_HANDLE_BYTES = 32
SIGNATURE_ERROR = "Could not verify authentication signature"
"""py_webauthn's message for a signature that does not verify (its exceptions carry no code)."""


class PasskeyRefusal(StrEnum):
    """Why a ceremony was refused: stable codes for clients and logs."""

    MALFORMED = "malformed_response"
    UNKNOWN_CHALLENGE = "unknown_challenge"
    EXPIRED_CHALLENGE = "expired_challenge"
    WRONG_CEREMONY = "wrong_ceremony"
    WRONG_PLAYER = "wrong_player"
    WRONG_ORIGIN = "wrong_origin"
    WRONG_RP_ID = "wrong_rp_id"
    USER_NOT_PRESENT = "user_not_present"
    USER_NOT_VERIFIED = "user_not_verified"
    CREDENTIAL_TAKEN = "credential_taken"
    UNKNOWN_CREDENTIAL = "unknown_credential"
    CREDENTIAL_OF_ANOTHER_PLAYER = "credential_of_another_player"
    SIGN_COUNT_NOT_INCREASED = "sign_count_not_increased"
    BAD_SIGNATURE = "bad_signature"
    INVALID_RESPONSE = "invalid_response"
    RATE_LIMITED = "rate_limited"


class PasskeyRefused(Exception):
    """A refused ceremony: `reason` is the stable code, `message` one sentence for the person."""

    def __init__(self, reason: PasskeyRefusal, message: str) -> None:
        super().__init__(f"{reason}: {message}")
        self.reason = reason
        self.message = message


def _refuse(reason: PasskeyRefusal, message: str) -> NoReturn:
    raise PasskeyRefused(reason, message)


@dataclass(frozen=True, slots=True)
class CeremonyStart:
    """What begins a ceremony: `options_json` for `navigator.credentials.create()`/`.get()` (the browser's
    `PublicKeyCredential.parseCreationOptionsFromJSON`/`parseRequestOptionsFromJSON` read it), and the
    challenge record the adapter stores before sending the options."""

    options_json: str
    challenge: ChallengeRecord


def new_user_handle() -> str:
    """A WebAuthn user id for a new account: random (the spec asks it to carry nothing about the person)."""
    return bytes_to_base64url(secrets.token_bytes(USER_HANDLE_BYTES))


def _new_challenge(
    ceremony: Ceremony, player_id: str | None, now: datetime, ttl: timedelta, user_handle: str | None = None
) -> ChallengeRecord:
    challenge = bytes_to_base64url(secrets.token_bytes(CHALLENGE_BYTES))
    return ChallengeRecord(challenge, ceremony, player_id, now + ttl, user_handle)


KNOWN_TRANSPORTS = frozenset(transport.value for transport in AuthenticatorTransport)


def _descriptor(passkey: PasskeyRecord) -> PublicKeyCredentialDescriptor:
    transports = [AuthenticatorTransport(name) for name in passkey.transports if name in KNOWN_TRANSPORTS]
    return PublicKeyCredentialDescriptor(id=base64url_to_bytes(passkey.credential_id), transports=transports or None)


# ------------------------------------------------------------------ beginning


def registration_options(
    rp: RelyingParty,
    *,
    player_id: str,
    user_handle: str,
    user_name: str,
    existing: Sequence[PasskeyRecord],
    now: datetime,
    ttl: timedelta = CHALLENGE_TTL,
) -> CeremonyStart:
    """Begin saving `player_id` with a new passkey. The passkey is discoverable (resident), so signing in
    later needs no name typed; `existing` passkeys are excluded, so one authenticator does not register twice."""
    challenge = _new_challenge(Ceremony.REGISTRATION, player_id, now, ttl, user_handle)
    options = generate_registration_options(
        rp_id=rp.rp_id,
        rp_name=rp.name,
        user_name=user_name,
        user_id=base64url_to_bytes(user_handle),
        challenge=base64url_to_bytes(challenge.challenge),
        timeout=BROWSER_TIMEOUT_MS,
        attestation=AttestationConveyancePreference.NONE,
        authenticator_selection=AuthenticatorSelectionCriteria(
            resident_key=ResidentKeyRequirement.REQUIRED,
            user_verification=UserVerificationRequirement.REQUIRED,
        ),
        exclude_credentials=[_descriptor(passkey) for passkey in existing],
    )
    return CeremonyStart(options_to_json(options), challenge)


def authentication_options(
    rp: RelyingParty,
    *,
    now: datetime,
    player_id: str | None = None,
    allow: Sequence[PasskeyRecord] = (),
    ttl: timedelta = CHALLENGE_TTL,
) -> CeremonyStart:
    """Begin a sign-in. Without `player_id` any passkey of ours may answer (the browser offers its discoverable
    ones) and it says whose it is; with `player_id` (confirming a player, e.g. before revoking everything) only
    that player's passkeys (`allow`) are accepted."""
    challenge = _new_challenge(Ceremony.AUTHENTICATION, player_id, now, ttl)
    options = generate_authentication_options(
        rp_id=rp.rp_id,
        challenge=base64url_to_bytes(challenge.challenge),
        timeout=BROWSER_TIMEOUT_MS,
        allow_credentials=[_descriptor(passkey) for passkey in allow],
        user_verification=UserVerificationRequirement.REQUIRED,
    )
    return CeremonyStart(options_to_json(options), challenge)


# ------------------------------------------------------------------ reading a response


@dataclass(frozen=True, slots=True)
class _Response:
    """What the checks here read from a browser's response."""

    credential_id: str
    client_data: CollectedClientData
    authenticator_data: AuthenticatorData
    user_handle: str | None
    transports: tuple[str, ...]


def _parse(response_json: str, ceremony: Ceremony) -> _Response:
    try:
        if ceremony is Ceremony.REGISTRATION:
            registration = parse_registration_credential_json(response_json)
            attestation = parse_attestation_object(registration.response.attestation_object)
            return _Response(
                registration.id,
                parse_client_data_json(registration.response.client_data_json),
                attestation.auth_data,
                None,
                tuple(str(t.value) for t in registration.response.transports or ()),
            )
        assertion = parse_authentication_credential_json(response_json)
        handle = assertion.response.user_handle
        return _Response(
            assertion.id,
            parse_client_data_json(assertion.response.client_data_json),
            parse_authenticator_data(assertion.response.authenticator_data),
            bytes_to_base64url(handle) if handle else None,
            (),
        )
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        _refuse(PasskeyRefusal.MALFORMED, f"the browser's answer could not be read ({error})")


def challenge_of(response_json: str) -> str:
    """The challenge a response answers (from its clientDataJSON): the one the adapter takes from the store."""
    try:
        credential = json.loads(response_json)
        client_data_json = base64url_to_bytes(credential["response"]["clientDataJSON"])
        return bytes_to_base64url(parse_client_data_json(client_data_json).challenge)
    except (WebAuthnException, ValueError, TypeError, KeyError) as error:
        _refuse(PasskeyRefusal.MALFORMED, f"the browser's answer could not be read ({error})")


def credential_id_of(response_json: str) -> str:
    """The credential id a response names (base64url): the passkey the adapter reads from the store."""
    try:
        credential_id = json.loads(response_json)["id"]
    except (ValueError, TypeError, KeyError) as error:
        _refuse(PasskeyRefusal.MALFORMED, f"the browser's answer could not be read ({error})")
    if not isinstance(credential_id, str) or not credential_id:
        _refuse(PasskeyRefusal.MALFORMED, "the browser's answer names no credential")
    return credential_id


# ------------------------------------------------------------------ the checks both ceremonies share


def _check_challenge(
    challenge: ChallengeRecord | None, ceremony: Ceremony, now: datetime, player_id: str | None
) -> ChallengeRecord:
    if challenge is None:
        _refuse(PasskeyRefusal.UNKNOWN_CHALLENGE, "this answer is to no challenge of ours (already used?): start again")
    if challenge.ceremony != ceremony:
        _refuse(PasskeyRefusal.WRONG_CEREMONY, f"this challenge was for a {challenge.ceremony}, not a {ceremony}")
    if now >= challenge.expires_at:
        _refuse(PasskeyRefusal.EXPIRED_CHALLENGE, "the passkey request expired: start again")
    if challenge.player_id is not None and player_id is not None and challenge.player_id != player_id:
        _refuse(PasskeyRefusal.WRONG_PLAYER, "this challenge was issued to another player")
    return challenge


def _check_client(rp: RelyingParty, response: _Response, challenge: ChallengeRecord, ceremony: Ceremony) -> None:
    client = response.client_data
    expected_type = ClientDataType.WEBAUTHN_CREATE if ceremony is Ceremony.REGISTRATION else ClientDataType.WEBAUTHN_GET
    if client.type != expected_type:
        _refuse(PasskeyRefusal.WRONG_CEREMONY, f"the browser ran {client.type}, expected {expected_type}")
    if bytes_to_base64url(client.challenge) != challenge.challenge:
        _refuse(PasskeyRefusal.UNKNOWN_CHALLENGE, "the browser signed another challenge")
    if client.origin not in rp.origins:
        _refuse(PasskeyRefusal.WRONG_ORIGIN, f"the request came from {client.origin}, not from {rp.origins[0]}")
    if client.cross_origin:
        _refuse(PasskeyRefusal.WRONG_ORIGIN, "the request came from a frame inside another site")
    data = response.authenticator_data
    if data.rp_id_hash != hashlib.sha256(rp.rp_id.encode()).digest():
        _refuse(PasskeyRefusal.WRONG_RP_ID, f"the passkey is for another site than {rp.rp_id}")
    if not data.flags.up:
        _refuse(PasskeyRefusal.USER_NOT_PRESENT, "the authenticator did not see the user (no touch or gesture)")
    if not data.flags.uv:
        _refuse(PasskeyRefusal.USER_NOT_VERIFIED, "the authenticator did not verify the user (PIN or biometrics)")


# ------------------------------------------------------------------ finishing


def verify_registration(
    rp: RelyingParty,
    *,
    challenge: ChallengeRecord | None,
    player_id: str,
    response_json: str,
    registered: PasskeyRecord | None,
    name: str,
    now: datetime,
) -> PasskeyRecord:
    """Finish saving `player_id` with a passkey: the new passkey's record, or `PasskeyRefused`.

    `challenge` is what the store's `take_challenge(challenge_of(response_json))` returned; `registered` is
    the stored passkey with the response's credential id (`credential_id_of`), if any: a credential id is
    registered once."""
    checked = _check_challenge(challenge, Ceremony.REGISTRATION, now, player_id)
    if checked.player_id is None or checked.user_handle is None:
        _refuse(PasskeyRefusal.WRONG_PLAYER, "a registration challenge must name its player and user handle")
    response = _parse(response_json, Ceremony.REGISTRATION)
    _check_client(rp, response, checked, Ceremony.REGISTRATION)
    if registered is not None:
        _refuse(PasskeyRefusal.CREDENTIAL_TAKEN, "this passkey is already saved")
    try:
        verified = verify_registration_response(
            credential=response_json,
            expected_challenge=base64url_to_bytes(checked.challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=list(rp.origins),
            require_user_verification=True,
        )
    except WebAuthnException as error:
        _refuse(PasskeyRefusal.INVALID_RESPONSE, f"the passkey's answer does not verify: {error}")
    return PasskeyRecord(
        credential_id=bytes_to_base64url(verified.credential_id),
        player_id=player_id,
        public_key=verified.credential_public_key,
        sign_count=verified.sign_count,
        transports=response.transports,
        name=passkey_name(name),
        created_at=now,
    )


def verify_authentication(
    rp: RelyingParty,
    *,
    challenge: ChallengeRecord | None,
    passkey: PasskeyRecord | None,
    owner_user_handle: str | None,
    response_json: str,
    now: datetime,
) -> PasskeyUsedRecord:
    """Finish a sign-in: the record of the passkey's use (its player is `passkey.player_id`), or `PasskeyRefused`.

    `passkey` is the stored passkey with the response's credential id; `owner_user_handle` the user handle of
    that passkey's account (the response's, when it carries one, must be it)."""
    checked = _check_challenge(challenge, Ceremony.AUTHENTICATION, now, None)
    response = _parse(response_json, Ceremony.AUTHENTICATION)
    _check_client(rp, response, checked, Ceremony.AUTHENTICATION)
    if passkey is None:
        _refuse(PasskeyRefusal.UNKNOWN_CREDENTIAL, "this passkey is not saved here (removed, or for another server)")
    if checked.player_id is not None and passkey.player_id != checked.player_id:
        _refuse(PasskeyRefusal.CREDENTIAL_OF_ANOTHER_PLAYER, "this passkey belongs to another player")
    if response.user_handle is not None and response.user_handle != owner_user_handle:
        _refuse(PasskeyRefusal.CREDENTIAL_OF_ANOTHER_PLAYER, "the passkey names another player than its owner")
    new_count = response.authenticator_data.sign_count
    if (new_count or passkey.sign_count) and new_count <= passkey.sign_count:
        _refuse(
            PasskeyRefusal.SIGN_COUNT_NOT_INCREASED,
            f"the passkey's counter went from {passkey.sign_count} to {new_count}: it may have been copied",
        )
    try:
        verified = verify_authentication_response(
            credential=response_json,
            expected_challenge=base64url_to_bytes(checked.challenge),
            expected_rp_id=rp.rp_id,
            expected_origin=list(rp.origins),
            credential_public_key=passkey.public_key,
            credential_current_sign_count=passkey.sign_count,
            require_user_verification=True,
        )
    except WebAuthnException as error:
        if str(error) == SIGNATURE_ERROR:
            _refuse(PasskeyRefusal.BAD_SIGNATURE, "the passkey's signature does not verify")
        _refuse(PasskeyRefusal.INVALID_RESPONSE, f"the passkey's answer does not verify: {error}")
    return PasskeyUsedRecord(passkey.credential_id, passkey.sign_count, verified.new_sign_count, now)
