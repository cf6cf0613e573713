// A plain HTTP client on loopback for the endpoint tests: a form-encoded query request, and a post that waits for
// the whole answer. Waits in wall time, briefly (the only tests that do: real sockets).
#pragma once

#include <QTcpSocket>
#include <QTest>
#include <catch2/catch.hpp>

namespace lifeline::test {

inline QByteArray formRequest(const QByteArray& form, const QByteArray& agent = "test-client/1.0")
{
    return "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: " + agent
        + "\r\nContent-Type: application/x-www-form-urlencoded\r\nContent-Length: " + QByteArray::number(form.size())
        + "\r\n\r\n" + form;
}

// Sends a whole request and returns the whole answer (head and body, by its Content-Length).
inline QByteArray exchange(QTcpSocket& socket, const QByteArray& request)
{
    socket.write(request);
    QByteArray response;
    const bool complete = QTest::qWaitFor(
        [&] {
            response += socket.readAll();
            const int end = response.indexOf("\r\n\r\n");
            if (end < 0)
                return false;
            const int at = response.indexOf("Content-Length: ");
            return response.size() >= end + 4 + response.mid(at + 16, response.indexOf('\r', at) - at - 16).toInt();
        },
        5000);
    CHECK(complete);
    return response;
}

// Sends a form and returns the whole answer.
inline QByteArray post(QTcpSocket& socket, const QByteArray& form)
{
    return exchange(socket, formRequest(form));
}

inline void connectTo(QTcpSocket& socket, quint16 port)
{
    socket.connectToHost(QStringLiteral("127.0.0.1"), port);
    REQUIRE(socket.waitForConnected(5000));
}

} // namespace lifeline::test
