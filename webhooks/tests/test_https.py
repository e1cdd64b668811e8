"""https to a pinned address (issue 22, item 4): the connection goes to the address that
was checked, while TLS still names the host, so its certificate is checked against the
URL's name (SNI and hostname verification), never against the address."""

import datetime
import http.server
import ssl
import threading

import pytest
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import NameOID

from tournaments.tests.factories import tournament
from webhooks import services, transport
from webhooks.models import Delivery
from webhooks.tests.conftest import Receiver, _handler
from webhooks.tests.test_delivery import sent_test_event

pytestmark = pytest.mark.django_db


def certificate(tmp_path, name: str):
    """A self-signed certificate for `name`: (its file, its key's file)."""
    key = ec.generate_private_key(ec.SECP256R1())
    subject = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, name)])
    now = datetime.datetime.now(datetime.UTC)
    cert = (
        x509.CertificateBuilder()
        .subject_name(subject)
        .issuer_name(subject)
        .public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5))
        .not_valid_after(now + datetime.timedelta(hours=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName(name)]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_file, key_file = tmp_path / f"{name}.pem", tmp_path / f"{name}.key"
    cert_file.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_file.write_bytes(
        key.private_bytes(
            serialization.Encoding.PEM,
            serialization.PrivateFormat.PKCS8,
            serialization.NoEncryption(),
        )
    )
    return cert_file, key_file


@pytest.fixture
def tls_receiver(tmp_path):
    """A receiver on 127.0.0.1 over TLS, whose certificate names hooks.venue.test."""
    cert_file, key_file = certificate(tmp_path, "hooks.venue.test")
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), None)
    found = Receiver(server=server)
    server.RequestHandlerClass = _handler(found)
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert_file, key_file)
    server.socket = context.wrap_socket(server.socket, server_side=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield found, cert_file
    server.shutdown()
    server.server_close()


@pytest.fixture
def trusting(monkeypatch):
    """The delivery's TLS trusts the given certificate as its authority."""

    def trust(cert_file):
        monkeypatch.setattr(
            transport, "_tls_context", lambda: ssl.create_default_context(cafile=str(cert_file))
        )

    return trust


def https_endpoint(tls_receiver, monkeypatch, webhook_settings, host: str):
    receiver, _cert = tls_receiver
    port = receiver.server.server_address[1]
    webhook_settings.WEBHOOK_ALLOWED_HOSTS = [host]  # the venue's own network
    monkeypatch.setattr(transport, "_addresses", lambda name, port: ["127.0.0.1"])
    return services.endpoint_create(
        actor=None,
        tournament_id=tournament().pk,
        url=f"https://{host}:{port}/hooks",
        event_types=["entry.busted"],
    ).endpoint


def test_https_reaches_the_pinned_address_with_the_hosts_certificate(
    tls_receiver,
    trusting,
    monkeypatch,
    webhook_settings,
    queued,
    django_capture_on_commit_callbacks,
):
    receiver, cert_file = tls_receiver
    trusting(cert_file)
    endpoint = https_endpoint(tls_receiver, monkeypatch, webhook_settings, "hooks.venue.test")

    sent_test_event(endpoint, django_capture_on_commit_callbacks)

    assert queued.run(limit=1) == ["delivered"]
    assert receiver.received[0].headers["Host"].startswith("hooks.venue.test")


def test_a_certificate_for_another_name_is_refused(
    tls_receiver,
    trusting,
    monkeypatch,
    webhook_settings,
    queued,
    django_capture_on_commit_callbacks,
):
    receiver, cert_file = tls_receiver
    trusting(cert_file)
    endpoint = https_endpoint(tls_receiver, monkeypatch, webhook_settings, "other.venue.test")

    sent_test_event(endpoint, django_capture_on_commit_callbacks)
    queued.run(limit=1)

    delivery = Delivery.objects.get()
    assert delivery.status == "failed" and "certificate" in delivery.error.lower()
    assert receiver.received == []
