#include "http/client_socket.h"

#include <algorithm>
#include <cerrno>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <unistd.h>

namespace lifeline::ui {

namespace {
constexpr size_t kReadChunk = size_t(64) << 10;
}

ClientSocket::ClientSocket(qintptr descriptor, qint64 readBufferBytes, QObject* parent)
    : QObject(parent)
    , m_descriptor(int(descriptor))
    , m_readBufferBytes(std::max<qint64>(readBufferBytes, 1))
    , m_readNotifier(descriptor, QSocketNotifier::Read)
    , m_writeNotifier(descriptor, QSocketNotifier::Write)
{
    ::fcntl(m_descriptor, F_SETFL, ::fcntl(m_descriptor, F_GETFL) | O_NONBLOCK);
    m_writeNotifier.setEnabled(false);
    connect(&m_readNotifier, &QSocketNotifier::activated, this, &ClientSocket::readable);
    connect(&m_writeNotifier, &QSocketNotifier::activated, this, &ClientSocket::writable);
}

ClientSocket::~ClientSocket()
{
    closeDescriptor();
}

void ClientSocket::setLowDelay()
{
    const int on = 1;
    ::setsockopt(m_descriptor, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
}

void ClientSocket::readable()
{
    bool got = false;
    while (isOpen() && !m_peerFinished) {
        const size_t room = size_t(m_readBufferBytes) - std::min(m_read.size(), size_t(m_readBufferBytes));
        if (room == 0) {
            m_readNotifier.setEnabled(false); // readAll() resumes
            break;
        }
        const size_t before = m_read.size();
        m_read.resize(before + std::min(room, kReadChunk));
        const ssize_t n = ::recv(m_descriptor, m_read.data() + before, m_read.size() - before, 0);
        m_read.resize(before + size_t(std::max<ssize_t>(n, 0)));
        if (n > 0) {
            got = true;
        } else if (n == 0) {
            m_peerFinished = true; // it may still read: the connection stays for the answers it is owed
            m_readNotifier.setEnabled(false);
            got = true;
        } else if (errno == EAGAIN || errno == EWOULDBLOCK) {
            break;
        } else if (errno != EINTR) {
            fail(); // a reset: the client is gone
            return;
        }
    }
    if (got)
        emit readyRead();
}

std::string ClientSocket::readAll()
{
    std::string bytes;
    bytes.swap(m_read);
    if (isOpen() && !m_peerFinished)
        m_readNotifier.setEnabled(true);
    return bytes;
}

void ClientSocket::write(std::string_view bytes)
{
    if (!isOpen() || bytes.empty())
        return;
    if (m_unwritten.empty() || m_unwritten.back().size() + bytes.size() > kKeptBufferBytes)
        m_unwritten.emplace_back();
    m_unwritten.back().append(bytes); // small answers share a buffer
    m_unwrittenBytes += bytes.size();
    flush();
}

void ClientSocket::write(std::string&& bytes)
{
    if (!isOpen() || bytes.empty())
        return;
    if (bytes.size() <= kKeptBufferBytes) {
        write(std::string_view(bytes));
        return;
    }
    // A large part (6 MiB of a streamed peek) is queued as it is: never copied, never grown into a larger buffer.
    m_unwrittenBytes += bytes.size();
    m_unwritten.push_back(std::move(bytes));
    flush();
}

bool ClientSocket::flush()
{
    while (!m_unwritten.empty()) {
        const std::string& front = m_unwritten.front();
        const ssize_t n = ::send(m_descriptor, front.data() + m_written, front.size() - m_written, MSG_NOSIGNAL);
        if (n > 0) {
            m_written += size_t(n);
            m_unwrittenBytes -= size_t(n);
            if (m_written == front.size()) {
                m_unwritten.pop_front();
                m_written = 0;
            }
        } else if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
            m_writeNotifier.setEnabled(true);
            return true;
        } else if (n < 0 && errno == EINTR) {
            continue;
        } else {
            fail();
            return false;
        }
    }
    m_writeNotifier.setEnabled(false);
    if (m_closeWhenWritten) {
        closeDescriptor();
        QMetaObject::invokeMethod(this, &ClientSocket::disconnected, Qt::QueuedConnection);
    }
    return true;
}

void ClientSocket::writable()
{
    const qint64 before = bytesToWrite();
    if (flush() && bytesToWrite() < before)
        emit bytesWritten();
}

void ClientSocket::disconnectFromHost()
{
    if (!isOpen())
        return;
    m_closeWhenWritten = true;
    if (bytesToWrite() == 0)
        flush(); // nothing left: closes now
}

void ClientSocket::abort()
{
    closeDescriptor();
}

void ClientSocket::fail()
{
    closeDescriptor();
    QMetaObject::invokeMethod(this, &ClientSocket::disconnected, Qt::QueuedConnection);
}

void ClientSocket::closeDescriptor()
{
    if (!isOpen())
        return;
    m_readNotifier.setEnabled(false);
    m_writeNotifier.setEnabled(false);
    ::close(m_descriptor);
    m_descriptor = -1;
    m_unwritten.clear();
    m_unwrittenBytes = 0;
    m_written = 0;
}

} // namespace lifeline::ui
