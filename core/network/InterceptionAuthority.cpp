#include "network/InterceptionAuthority.h"

#include <memory>
#include <openssl/bio.h>
#include <openssl/bn.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>

namespace sandbox {

namespace {

template <auto Free>
struct Deleter
{
    template <typename T>
    void operator()(T *pointer) const
    {
        Free(pointer);
    }
};
using Key = std::unique_ptr<EVP_PKEY, Deleter<EVP_PKEY_free>>;
using Certificate = std::unique_ptr<X509, Deleter<X509_free>>;
using Bio = std::unique_ptr<BIO, Deleter<BIO_free>>;
using Number = std::unique_ptr<BIGNUM, Deleter<BN_free>>;
using Extension = std::unique_ptr<X509_EXTENSION, Deleter<X509_EXTENSION_free>>;

constexpr long kValidSeconds = 10L * 365 * 24 * 3600;

Error failed(const char *what)
{
    return Error{
        QStringLiteral("Cannot make the egress proxy's certificate authority: %1 failed.").arg(QLatin1String(what))};
}

QByteArray bioText(BIO *bio)
{
    char *data = nullptr;
    const long size = BIO_get_mem_data(bio, &data);
    return QByteArray(data, qsizetype(size));
}

} // namespace

Result<InterceptionAuthority> InterceptionAuthority::generate()
{
    const Key key(EVP_EC_gen("P-256"));
    const Certificate certificate(X509_new());
    const Number serial(BN_new());
    if (!key || !certificate || !serial || BN_rand(serial.get(), 127, BN_RAND_TOP_ANY, BN_RAND_BOTTOM_ANY) != 1 ||
        !BN_to_ASN1_INTEGER(serial.get(), X509_get_serialNumber(certificate.get()))) {
        return failed("making its key");
    }
    X509_NAME *name = X509_get_subject_name(certificate.get());
    if (X509_set_version(certificate.get(), 2) != 1 ||
        !X509_gmtime_adj(X509_getm_notBefore(certificate.get()), -3600) ||
        !X509_gmtime_adj(X509_getm_notAfter(certificate.get()), kValidSeconds) ||
        X509_set_pubkey(certificate.get(), key.get()) != 1 ||
        X509_NAME_add_entry_by_txt(name, "O", MBSTRING_UTF8, reinterpret_cast<const unsigned char *>("LLM Sandbox"), -1,
                                   -1, 0) != 1 ||
        X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8,
                                   reinterpret_cast<const unsigned char *>("LLM Sandbox egress proxy (this computer)"),
                                   -1, -1, 0) != 1 ||
        X509_set_issuer_name(certificate.get(), name) != 1) {
        return failed("describing it");
    }
    X509V3_CTX context;
    X509V3_set_ctx_nodb(&context);
    X509V3_set_ctx(&context, certificate.get(), certificate.get(), nullptr, nullptr, 0);
    for (const auto &[nid, value] :
         {std::pair{NID_basic_constraints, "critical,CA:TRUE,pathlen:0"},
          std::pair{NID_key_usage, "critical,keyCertSign,cRLSign"}, std::pair{NID_subject_key_identifier, "hash"}}) {
        const Extension extension(X509V3_EXT_conf_nid(nullptr, &context, nid, value));
        if (!extension || X509_add_ext(certificate.get(), extension.get(), -1) != 1) {
            return failed("adding its extensions");
        }
    }
    if (X509_sign(certificate.get(), key.get(), EVP_sha256()) <= 0) {
        return failed("signing it");
    }
    const Bio certificateText(BIO_new(BIO_s_mem()));
    const Bio keyText(BIO_new(BIO_s_mem()));
    if (!certificateText || !keyText || PEM_write_bio_X509(certificateText.get(), certificate.get()) != 1 ||
        PEM_write_bio_PrivateKey(keyText.get(), key.get(), nullptr, nullptr, 0, nullptr, nullptr) != 1) {
        return failed("writing it");
    }
    return InterceptionAuthority{bioText(certificateText.get()), bioText(keyText.get())};
}

Result<InterceptionAuthority> InterceptionAuthority::fromPem(const QByteArray &pem)
{
    const Error notOne{
        QStringLiteral("The keychain entry %1 is not the egress proxy's certificate authority.").arg(keychainKey())};
    const Bio certificateText(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    const Bio keyText(BIO_new_mem_buf(pem.constData(), int(pem.size())));
    if (!certificateText || !keyText) {
        return notOne;
    }
    const Certificate certificate(PEM_read_bio_X509(certificateText.get(), nullptr, nullptr, nullptr));
    const Key key(PEM_read_bio_PrivateKey(keyText.get(), nullptr, nullptr, nullptr));
    if (!certificate || !key || X509_check_private_key(certificate.get(), key.get()) != 1 ||
        X509_check_ca(certificate.get()) == 0) {
        return notOne;
    }
    time_t soon = time(nullptr) + 30L * 24 * 3600;
    if (X509_cmp_time(X509_get0_notAfter(certificate.get()), &soon) <= 0) {
        return Error{QStringLiteral("The egress proxy's certificate authority expires within 30 days.")};
    }
    const qsizetype keyStart = pem.indexOf("-----BEGIN", pem.indexOf("-----END CERTIFICATE-----"));
    return InterceptionAuthority{pem.left(keyStart), pem.mid(keyStart)};
}

} // namespace sandbox
