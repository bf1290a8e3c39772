#include "mcp/http/HttpRequestFramer.h"

#include <QList>
#include <algorithm>

namespace sandbox::mcp {

namespace {

constexpr QByteArrayView kHeadEnd("\r\n\r\n");

// RFC 9110 tchar: what a method or a header name may consist of.
bool isTokenChar(char c)
{
    if ((c >= '0' && c <= '9') || (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z')) {
        return true;
    }
    return QByteArrayView("!#$%&'*+-.^_`|~").contains(c);
}

bool isToken(QByteArrayView text)
{
    return !text.isEmpty() && std::all_of(text.begin(), text.end(), isTokenChar);
}

// Field values: visible characters, spaces, tabs and obs-text; never CR, LF, NUL or other controls.
bool isFieldValue(QByteArrayView text)
{
    return std::none_of(text.begin(), text.end(), [](char c) {
        const auto byte = static_cast<unsigned char>(c);
        return (byte < 0x20 && byte != '\t') || byte == 0x7f;
    });
}

QByteArrayView trimmedValue(QByteArrayView value)
{
    while (!value.isEmpty() && (value.front() == ' ' || value.front() == '\t')) {
        value = value.sliced(1);
    }
    while (!value.isEmpty() && (value.back() == ' ' || value.back() == '\t')) {
        value.chop(1);
    }
    return value;
}

} // namespace

bool HttpRequestFramer::hasToken(QByteArrayView commaList, QByteArrayView token)
{
    for (const QByteArray &item : commaList.toByteArray().split(',')) {
        if (trimmedValue(item).compare(token, Qt::CaseInsensitive) == 0) {
            return true;
        }
    }
    return false;
}

HttpRequestFramer::HttpRequestFramer(HttpLimits limits, HeadCheck check) : m_limits(limits), m_check(std::move(check))
{}

HttpRequestFramer::Progress HttpRequestFramer::feed(QByteArrayView bytes)
{
    Progress progress;
    if (m_state == State::Failed) {
        return fail(progress, 400, "The connection was already rejected.");
    }
    qsizetype pos = 0;
    while (pos < bytes.size()) {
        if (m_state == State::Body) {
            const qint64 take = std::min<qint64>(m_bodyRemaining, bytes.size() - pos);
            m_bodyRemaining -= take;
            pos += take;
            if (m_bodyRemaining == 0) {
                m_state = State::Head;
                ++progress.completed;
            }
            continue;
        }

        if (m_head.isEmpty()) {
            // RFC 9112 2.2: empty lines before a request line are ignored (some clients send one after a body).
            while (pos < bytes.size() && (bytes[pos] == '\r' || bytes[pos] == '\n')) {
                ++pos;
            }
            if (pos == bytes.size()) {
                break;
            }
        }
        const qsizetype before = m_head.size();
        const qsizetype take = std::min<qsizetype>(bytes.size() - pos, m_limits.maxHeaderBytes + 1 - before);
        m_head.append(bytes.sliced(pos, take));
        const qsizetype end = m_head.indexOf(kHeadEnd, std::max<qsizetype>(0, before - 3));
        // A line ending in a bare LF is where parsers disagree (request smuggling); only CRLF is accepted. What
        // follows the head is body and may hold anything.
        const qsizetype scanEnd = end < 0 ? m_head.size() : end + kHeadEnd.size();
        for (qsizetype i = std::max<qsizetype>(before, 1); i < scanEnd; ++i) {
            if (m_head[i] == '\n' && m_head[i - 1] != '\r') {
                return fail(progress, 400, "Header lines must end with CRLF.");
            }
        }
        if (end < 0) {
            if (m_head.size() > m_limits.maxHeaderBytes) {
                return fail(progress, 431, "The request line and headers are too large.");
            }
            pos += take;
            continue;
        }
        const qsizetype headLength = end + kHeadEnd.size();
        if (headLength > m_limits.maxHeaderBytes) {
            return fail(progress, 431, "The request line and headers are too large.");
        }
        pos += headLength - before; // the rest of this chunk is body or the next request
        Head head;
        std::optional<Rejection> rejection = parseHead(QByteArrayView(m_head).first(headLength), head);
        if (!rejection && m_check) {
            rejection = m_check(head.request);
        }
        m_head.clear();
        if (rejection) {
            m_state = State::Failed;
            progress.rejection = rejection;
            return progress;
        }
        if (head.contentLength > 0) {
            m_state = State::Body;
            m_bodyRemaining = head.contentLength;
            progress.continueExpected = progress.continueExpected || head.expectContinue;
        } else {
            ++progress.completed;
        }
    }
    return progress;
}

namespace {

std::optional<HttpRequestFramer::Rejection> reject(int status, const char *message)
{
    return HttpRequestFramer::Rejection{status, QByteArray(message)};
}

} // namespace

std::optional<HttpRequestFramer::Rejection> HttpRequestFramer::parseHead(QByteArrayView head, Head &parsed) const
{
    QList<QByteArrayView> lines;
    for (qsizetype start = 0; start < head.size();) {
        const qsizetype end = head.indexOf(QByteArrayView("\r\n"), start);
        if (end <= start) {
            break; // the empty line that ends the head
        }
        lines.append(head.sliced(start, end - start));
        start = end + 2;
    }
    if (lines.isEmpty()) {
        return reject(400, "The request has no request line.");
    }
    if (std::optional<Rejection> rejection = parseRequestLine(lines.first(), parsed)) {
        return rejection;
    }
    return parseHeaders(QList<QByteArrayView>(lines.begin() + 1, lines.end()), parsed);
}

std::optional<HttpRequestFramer::Rejection> HttpRequestFramer::parseRequestLine(QByteArrayView line, Head &parsed)
{
    const QList<QByteArray> requestLine = line.toByteArray().split(' ');
    if (requestLine.size() != 3) {
        return reject(400, "The request line must be METHOD SP TARGET SP HTTP-VERSION.");
    }
    const QByteArray &method = requestLine[0];
    const QByteArray &target = requestLine[1];
    const QByteArray &version = requestLine[2];
    parsed.request.target = target;
    if (!isToken(method)) {
        return reject(400, "The request method is not a token.");
    }
    // The methods Qt's parser knows; it drops the connection on any other, so they are answered here.
    static const QList<QByteArrayView> known{"GET", "POST", "DELETE", "HEAD", "OPTIONS", "PUT", "PATCH"};
    if (method == "CONNECT") {
        return reject(405, "CONNECT is not supported.");
    }
    if (!known.contains(QByteArrayView(method))) {
        return reject(501, "The request method is not implemented.");
    }
    if (!target.startsWith('/') || !std::all_of(target.begin(), target.end(), [](char c) {
            return static_cast<unsigned char>(c) > 0x20 && static_cast<unsigned char>(c) < 0x7f;
        })) {
        return reject(400, "The request target must be an absolute path.");
    }
    if (version != "HTTP/1.1") {
        if (version.size() == 8 && version.startsWith("HTTP/") && version[6] == '.') {
            return reject(505, "Only HTTP/1.1 is supported.");
        }
        return reject(400, "The request line has no valid HTTP version.");
    }

    return std::nullopt;
}

std::optional<HttpRequestFramer::Rejection> HttpRequestFramer::parseHeaders(const QList<QByteArrayView> &lines,
                                                                            Head &parsed) const
{
    int hosts = 0;
    bool hasContentLength = false;
    bool upgrade = false;
    bool connectionUpgrade = false;
    for (const QByteArrayView line : lines) {
        if (line.front() == ' ' || line.front() == '\t') {
            return reject(400, "Folded header lines are not accepted.");
        }
        const qsizetype colon = line.indexOf(':');
        if (colon <= 0 || !isToken(line.first(colon))) {
            return reject(400, "A header line is not NAME: VALUE.");
        }
        const QByteArrayView name = line.first(colon);
        const QByteArrayView value = trimmedValue(line.sliced(colon + 1));
        if (!isFieldValue(value)) {
            return reject(400, "A header value holds control characters.");
        }
        if (name.compare("Content-Length", Qt::CaseInsensitive) == 0) {
            if (hasContentLength) {
                return reject(400, "The request has more than one Content-Length.");
            }
            hasContentLength = true;
            if (value.isEmpty() || value.size() > 18 ||
                !std::all_of(value.begin(), value.end(), [](char c) { return c >= '0' && c <= '9'; })) {
                return reject(value.size() > 18 ? 413 : 400, "Content-Length is not a valid size.");
            }
            parsed.contentLength = value.toLongLong();
            if (parsed.contentLength > m_limits.maxBodyBytes) {
                return reject(413, "The request body is larger than the server accepts.");
            }
        } else if (name.compare("Transfer-Encoding", Qt::CaseInsensitive) == 0) {
            return reject(411, "Send the request body with Content-Length; Transfer-Encoding is not accepted.");
        } else if (name.compare("Host", Qt::CaseInsensitive) == 0) {
            ++hosts;
        } else if (name.compare("Authorization", Qt::CaseInsensitive) == 0) {
            parsed.request.authorization = value.toByteArray();
        } else if (name.compare("Expect", Qt::CaseInsensitive) == 0) {
            if (value.compare("100-continue", Qt::CaseInsensitive) != 0) {
                return reject(417, "Only Expect: 100-continue is supported.");
            }
            parsed.expectContinue = true;
        } else if (name.compare("Upgrade", Qt::CaseInsensitive) == 0) {
            upgrade = true;
        } else if (name.compare("Connection", Qt::CaseInsensitive) == 0) {
            connectionUpgrade = connectionUpgrade || hasToken(value, "upgrade");
        }
    }
    if (hosts != 1) {
        return reject(400, "An HTTP/1.1 request needs exactly one Host header.");
    }
    if (upgrade && connectionUpgrade) {
        return reject(400, "Protocol upgrades are not supported.");
    }
    return std::nullopt;
}

HttpRequestFramer::Progress HttpRequestFramer::fail(Progress progress, int status, const char *message)
{
    m_state = State::Failed;
    m_head.clear();
    progress.rejection = Rejection{status, QByteArray(message)};
    return progress;
}

} // namespace sandbox::mcp
