// The proxy's reader of upstream answers: lengths, chunks, answers that run to the close, and refusals.
#include "lifeline/aws/http_response_parser.h"

#include <catch2/catch.hpp>

using namespace lifeline::aws;
using State = HttpResponseParser::State;

TEST_CASE("response parser: Content-Length - byte by byte - and the next answer on the connection", "[net][http]")
{
    const std::string two = "HTTP/1.1 200 OK\r\nContent-Type: text/xml\r\nContent-Length: 5\r\n\r\nhello"
                            "HTTP/1.1 400 Bad Request\r\nx-amzn-RequestId: r2\r\nContent-Length: 2\r\n\r\nno";
    HttpResponseParser parser;
    State state = State::NeedMore;
    size_t i = 0;
    for (; i < two.size() && state == State::NeedMore; ++i)
        state = parser.feed(two.substr(i, 1));
    REQUIRE(state == State::Complete);
    CHECK(i == 67); // complete at the last byte of the first answer
    HttpAnswer first = parser.takeAnswer();
    CHECK(first.status == 200);
    CHECK(first.header("content-type") == "text/xml");
    CHECK(first.body == "hello");
    CHECK(first.keepAlive);
    parser.next();
    state = parser.feed(two.substr(i));
    REQUIRE(state == State::Complete);
    HttpAnswer second = parser.takeAnswer();
    CHECK(second.status == 400);
    CHECK(second.header("x-amzn-requestid") == "r2");
    CHECK(second.body == "no");
}

TEST_CASE("response parser: chunked - until close - 100 Continue - errors", "[net][http]")
{
    HttpResponseParser chunked;
    REQUIRE(
        chunked.feed("HTTP/1.1 200 OK\r\nTransfer-Encoding: chunked\r\n\r\n4;x=y\r\nWiki\r\n5\r\npedia\r\n0\r\n\r\n")
        == State::Complete);
    CHECK(chunked.takeAnswer().body == "Wikipedia");

    HttpResponseParser untilClose;
    CHECK(untilClose.feed("HTTP/1.0 200 OK\r\n\r\nabc") == State::NeedMore);
    REQUIRE(untilClose.finish() == State::Complete);
    const HttpAnswer closed = untilClose.takeAnswer();
    CHECK(closed.body == "abc");
    CHECK_FALSE(closed.keepAlive);

    HttpResponseParser interim;
    REQUIRE(interim.feed("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 204 No Content\r\nConnection: close\r\n\r\n")
        == State::Complete);
    const HttpAnswer noContent = interim.takeAnswer();
    CHECK(noContent.status == 204);
    CHECK_FALSE(noContent.keepAlive);

    HttpResponseParser cut;
    CHECK(cut.feed("HTTP/1.1 200 OK\r\nContent-Length: 10\r\n\r\nabc") == State::NeedMore);
    CHECK(cut.finish() == State::Error);
    CHECK(cut.errorText() == "the upstream closed the connection in the middle of an answer");

    HttpResponseParser garbage;
    CHECK(garbage.feed("SSH-2.0-OpenSSH\r\n\r\n") == State::Error);
    CHECK(garbage.errorText() == "the upstream did not answer in HTTP/1.1");

    HttpResponseParser big(100);
    CHECK(big.feed("HTTP/1.1 200 OK\r\nContent-Length: 101\r\n\r\n") == State::Error);
    CHECK(big.errorText() == "the upstream's answer is larger than 100 bytes");
}
