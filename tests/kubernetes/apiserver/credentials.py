"""The server's own PKI and the credentials a client needs: a CA, a serving certificate, a client certificate, bearer
tokens, and a kubeconfig that offers each authentication method as its own context.

Client certificates are authenticated like the real API server does it: CN is the user name, each O a group.
"""

import base64
import datetime
import ipaddress
import os
import secrets

import yaml
from cryptography import x509
from cryptography.hazmat.primitives import hashes, serialization
from cryptography.hazmat.primitives.asymmetric import ec
from cryptography.x509.oid import ExtendedKeyUsageOID, NameOID

# Who each credential authenticates as. The admin is in system:masters (allowed everything, as on a real
# cluster); the restricted user may only read pods, so tests see the real RBAC denial.
ADMIN_USER = "llm-sandbox-admin"
ADMIN_GROUP = "system:masters"
TOKEN_USER = "llm-sandbox-token-admin"
RESTRICTED_USER = "llm-sandbox-restricted"


def _key():
    return ec.generate_private_key(ec.SECP256R1())


def _pem_key(key):
    return key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                             serialization.NoEncryption())


def _pem_cert(cert):
    return cert.public_bytes(serialization.Encoding.PEM)


def _certificate(subject, key, issuer, issuer_key, *, ca=False, server=False):
    now = datetime.datetime.now(datetime.timezone.utc)
    builder = (x509.CertificateBuilder()
               .subject_name(subject)
               .issuer_name(issuer)
               .public_key(key.public_key())
               .serial_number(x509.random_serial_number())
               .not_valid_before(now - datetime.timedelta(minutes=5))
               .not_valid_after(now + datetime.timedelta(days=2))
               .add_extension(x509.BasicConstraints(ca=ca, path_length=None), critical=True))
    if ca:
        builder = builder.add_extension(
            x509.KeyUsage(digital_signature=True, key_cert_sign=True, crl_sign=True, content_commitment=False,
                          key_encipherment=False, data_encipherment=False, key_agreement=False,
                          encipher_only=False, decipher_only=False), critical=True)
    else:
        usage = ExtendedKeyUsageOID.SERVER_AUTH if server else ExtendedKeyUsageOID.CLIENT_AUTH
        builder = builder.add_extension(x509.ExtendedKeyUsage([usage]), critical=False)
    if server:
        builder = builder.add_extension(
            x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                         x509.IPAddress(ipaddress.ip_address("127.0.0.1"))]), critical=False)
    return builder.sign(issuer_key, hashes.SHA256())


class Credentials:
    """Creates every file under state_dir; `users_by_token` is what the authenticator checks."""

    def __init__(self, state_dir):
        self.dir = state_dir
        self.ca_file = os.path.join(state_dir, "ca.crt")
        self.server_cert_file = os.path.join(state_dir, "server.crt")
        self.server_key_file = os.path.join(state_dir, "server.key")
        self.client_cert_file = os.path.join(state_dir, "client.crt")
        self.client_key_file = os.path.join(state_dir, "client.key")
        self.token_file = os.path.join(state_dir, "token")
        self.restricted_token_file = os.path.join(state_dir, "restricted-token")
        self.kubeconfig_file = os.path.join(state_dir, "kubeconfig")
        self.admin_token = secrets.token_hex(24)
        self.restricted_token = secrets.token_hex(24)
        self.users_by_token = {
            self.admin_token: (TOKEN_USER, [ADMIN_GROUP, "system:authenticated"]),
            self.restricted_token: (RESTRICTED_USER, ["system:authenticated"]),
        }

    def generate(self):
        ca_key = _key()
        ca_name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "llm-sandbox-test-ca")])
        ca = _certificate(ca_name, ca_key, ca_name, ca_key, ca=True)
        server_key = _key()
        server = _certificate(x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "kube-apiserver")]),
                              server_key, ca_name, ca_key, server=True)
        client_key = _key()
        client_name = x509.Name([x509.NameAttribute(NameOID.ORGANIZATION_NAME, ADMIN_GROUP),
                                 x509.NameAttribute(NameOID.COMMON_NAME, ADMIN_USER)])
        client = _certificate(client_name, client_key, ca_name, ca_key)
        self._write(self.ca_file, _pem_cert(ca))
        self._write(self.server_cert_file, _pem_cert(server))
        self._write(self.server_key_file, _pem_key(server_key))
        self._write(self.client_cert_file, _pem_cert(client))
        self._write(self.client_key_file, _pem_key(client_key))
        self._write(self.token_file, self.admin_token.encode())
        self._write(self.restricted_token_file, self.restricted_token.encode())

    def write_kubeconfig(self, server_url):
        def data(path):
            with open(path, "rb") as f:
                return base64.b64encode(f.read()).decode()

        # One context per way a kubeconfig can carry credentials, so clients' loaders are tested against each.
        config = {
            "apiVersion": "v1",
            "kind": "Config",
            "clusters": [
                {"name": "kube-test", "cluster": {"server": server_url,
                                                  "certificate-authority-data": data(self.ca_file)}},
                {"name": "kube-test-ca-file", "cluster": {"server": server_url, "certificate-authority": self.ca_file}},
                {"name": "kube-test-insecure", "cluster": {"server": server_url, "insecure-skip-tls-verify": True}},
            ],
            "users": [
                {"name": "cert-user", "user": {"client-certificate-data": data(self.client_cert_file),
                                               "client-key-data": data(self.client_key_file)}},
                {"name": "cert-file-user", "user": {"client-certificate": self.client_cert_file,
                                                    "client-key": self.client_key_file}},
                {"name": "token-user", "user": {"token": self.admin_token}},
                {"name": "token-file-user", "user": {"tokenFile": self.token_file}},
                {"name": "restricted-user", "user": {"token": self.restricted_token}},
                # An exec credential plugin (client.authentication.k8s.io/v1) that hands out the admin token.
                {"name": "exec-user", "user": {"exec": {
                    "apiVersion": "client.authentication.k8s.io/v1", "command": "/bin/sh",
                    "args": ["-c", 'printf \'{"apiVersion":"client.authentication.k8s.io/v1",'
                                   '"kind":"ExecCredential","status":{"token":"%s"}}\' "$(cat "$1")"', "sh",
                             self.token_file],
                    "interactiveMode": "Never", "provideClusterInfo": False}}},
            ],
            "contexts": [
                {"name": name, "context": {"cluster": cluster, "user": user, "namespace": "default"}}
                for name, cluster, user in (
                    ("kube-test", "kube-test", "cert-user"),
                    ("kube-test-files", "kube-test-ca-file", "cert-file-user"),
                    ("kube-test-token", "kube-test", "token-user"),
                    ("kube-test-token-file", "kube-test", "token-file-user"),
                    ("kube-test-insecure", "kube-test-insecure", "token-user"),
                    ("kube-test-exec", "kube-test", "exec-user"),
                    ("kube-test-restricted", "kube-test", "restricted-user"))
            ],
            "current-context": "kube-test",
            "preferences": {},
        }
        self._write(self.kubeconfig_file, yaml.safe_dump(config, sort_keys=False).encode())

    @staticmethod
    def _write(path, content):
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        with os.fdopen(fd, "wb") as f:
            f.write(content)
