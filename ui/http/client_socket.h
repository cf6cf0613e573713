// A client's TCP connection as the servers need it, over the descriptor itself. QTcpSocket closes the whole socket
// when it reads the client's end of stream; but a client that half-closes after its request (shutdown(SHUT_WR),
// legal TCP: "I have said all I will say") still reads, and an answer that comes later (a request gone upstream)
// must reach it. Here the end of stream is a fact to read (peerFinished()), and only a reset, a failed write or the
// owner closes the connection.
#pragma once

#include <QObject>
#include <QSocketNotifier>
#include <deque>
#include <string>
#include <string_view>

namespace lifeline::ui {

class ClientSocket : public QObject {
    Q_OBJECT
public:
    // Takes an accepted, connected descriptor (made non-blocking here) and closes it when destroyed. At most
    // readBufferBytes are read ahead of readAll(); beyond that the kernel's buffer fills and the client slows.
    ClientSocket(qintptr descriptor, qint64 readBufferBytes, QObject* parent = nullptr);
    ~ClientSocket() override;
    ClientSocket(const ClientSocket&) = delete;
    ClientSocket& operator=(const ClientSocket&) = delete;

    void setLowDelay(); // TCP_NODELAY: an answer is one write, sent at once
    std::string readAll(); // what has been read so far; reading from the kernel resumes
    bool peerFinished() const { return m_peerFinished; } // the client's end of stream was read: it sends no more
    bool isOpen() const { return m_descriptor >= 0; }
    // As much as the kernel takes now; the rest as it drains, in order.
    void write(std::string_view bytes);
    void write(std::string&& bytes); // the same, taking the caller's buffer when nothing waits before it
    qint64 bytesToWrite() const { return qint64(m_unwrittenBytes); }
    void disconnectFromHost(); // closes once everything written is out
    void abort(); // closes now, dropping what is unwritten; no disconnected()

signals:
    void readyRead(); // new bytes, or the end of stream
    void bytesWritten();
    // Closed by a reset or an error, or by disconnectFromHost() once written. Emitted from the event loop, never
    // inside a call to this socket.
    void disconnected();

private:
    void readable();
    void writable();
    bool flush(); // false: the connection failed
    void fail(); // closes and says so on the next turn of the event loop
    void closeDescriptor();

    static constexpr size_t kKeptBufferBytes = size_t(64) << 10;
    int m_descriptor;
    qint64 m_readBufferBytes;
    QSocketNotifier m_readNotifier;
    QSocketNotifier m_writeNotifier;
    std::string m_read;
    std::deque<std::string> m_unwritten; // in order; small writes share a buffer, a large one keeps its own
    size_t m_unwrittenBytes = 0;
    size_t m_written = 0; // of m_unwritten's first, already sent
    bool m_peerFinished = false;
    bool m_closeWhenWritten = false;
};

} // namespace lifeline::ui
