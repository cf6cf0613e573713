// The AWS SDK for Go v2 (Debian's golang-github-aws-aws-sdk-go-v2-dev, the query protocol) against
// `lifeline serve --clock manual`: a message's life through its visibility timeout, a batch, attributes, a FIFO
// group, and AWS's recorded errors, the clock moved by the control API (no sleep).
// Usage: go run main.go LIFELINE SNAPSHOT.json  (GO111MODULE=off GOPATH=/usr/share/gocode)
package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"os"
	"os/exec"
	"regexp"
	"strings"

	"github.com/aws/aws-sdk-go-v2/aws"
	awshttp "github.com/aws/aws-sdk-go-v2/aws/transport/http"
	"github.com/aws/aws-sdk-go-v2/credentials"
	"github.com/aws/aws-sdk-go-v2/service/sqs"
	"github.com/aws/aws-sdk-go-v2/service/sqs/types"
	"github.com/aws/smithy-go"
)

var (
	ctx      = context.Background()
	endpoint string
	client   *sqs.Client
	snapshot map[string]struct {
		Recorded map[string]json.RawMessage `json:"recorded-content"` // an error's, or other values
	}
	failures []string
)

func check(name string, body func() error) {
	if err := body(); err != nil {
		failures = append(failures, name)
		fmt.Println("FAIL", name, err)
		return
	}
	fmt.Println("ok  ", name)
}

func advance(by string) error {
	answer, err := http.Post(endpoint+"/_lifeline/clock/advance", "application/json",
		bytes.NewBufferString(`{"by": "`+by+`"}`))
	if err != nil {
		return err
	}
	defer answer.Body.Close()
	if answer.StatusCode != 200 {
		return fmt.Errorf("advance %s: HTTP %d", by, answer.StatusCode)
	}
	return nil
}

func queue(name string, attributes map[string]string) (string, error) {
	out, err := client.CreateQueue(ctx, &sqs.CreateQueueInput{QueueName: aws.String(name), Attributes: attributes})
	if err != nil {
		return "", err
	}
	return *out.QueueUrl, nil
}

// The error AWS answered in a recording (tests/data/aws-recorded), its code, message and HTTP status.
func expectError(err error, test, key string, replace map[string]string) error {
	var want *struct {
		Error struct {
			Code           string
			QueryErrorCode string
			Message        string
		}
		ResponseMetadata struct{ HTTPStatusCode int }
	}
	for name, entry := range snapshot {
		if strings.HasSuffix(name, "::"+test+"[sqs]") || strings.HasSuffix(name, "::"+test) {
			if recorded, ok := entry.Recorded[key]; ok && json.Unmarshal(recorded, &want) != nil {
				want = nil
			}
		}
	}
	if want == nil {
		return fmt.Errorf("no recording %s/%s", test, key)
	}
	if err == nil {
		return fmt.Errorf("%s/%s: no error", test, key)
	}
	var apiErr smithy.APIError
	if !errors.As(err, &apiErr) {
		return fmt.Errorf("not an API error: %v", err)
	}
	message := want.Error.Message
	for placeholder, value := range replace {
		message = strings.ReplaceAll(message, placeholder, value)
	}
	if apiErr.ErrorCode() != want.Error.Code && apiErr.ErrorCode() != want.Error.QueryErrorCode {
		return fmt.Errorf("code %s vs %s / %s", apiErr.ErrorCode(), want.Error.Code, want.Error.QueryErrorCode)
	}
	// This SDK's query deserializer keeps no message for SQS's modeled errors (QueueDoesNotExist and its kind come
	// back with an empty Message whatever the server said, real AWS included): those are checked by code and status;
	// every other error by its message too.
	var generic *smithy.GenericAPIError
	if errors.As(err, &generic) && apiErr.ErrorMessage() != message {
		return fmt.Errorf("message '%s' vs '%s'", apiErr.ErrorMessage(), message)
	}
	var httpErr *awshttp.ResponseError
	if !errors.As(err, &httpErr) || httpErr.HTTPStatusCode() != want.ResponseMetadata.HTTPStatusCode {
		return fmt.Errorf("status vs %d", want.ResponseMetadata.HTTPStatusCode)
	}
	return nil
}

func main() {
	lifeline, snapshotPath := os.Args[1], os.Args[2]
	text, err := os.ReadFile(snapshotPath)
	if err == nil {
		err = json.Unmarshal(text, &snapshot)
	}
	if err != nil {
		fmt.Println("cannot read the recordings:", err)
		os.Exit(2)
	}
	server := exec.Command(lifeline, "serve", "--headless", "--port", "0", "--clock", "manual")
	stdout, _ := server.StdoutPipe()
	if err := server.Start(); err != nil {
		fmt.Println("cannot start lifeline serve:", err)
		os.Exit(2)
	}
	defer server.Process.Kill()
	banner, _ := bufio.NewReader(stdout).ReadString('\n')
	endpoint = regexp.MustCompile(`http://127\.0\.0\.1:\d+`).FindString(banner)
	client = sqs.New(sqs.Options{
		Region:           "us-east-1",
		Credentials:      credentials.NewStaticCredentialsProvider("test", "test", ""),
		EndpointResolver: sqs.EndpointResolverFromURL(endpoint),
		RetryMaxAttempts: 1,
	})
	fmt.Println("aws-sdk-go-v2 (query protocol) against", endpoint)

	check("send, receive, visibility expiry and redelivery", func() error {
		url, err := queue("go", map[string]string{"VisibilityTimeout": "30"})
		if err != nil {
			return err
		}
		if url != endpoint+"/000000000000/go" {
			return fmt.Errorf("url %s", url)
		}
		sent, err := client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &url, MessageBody: aws.String("hello")})
		if err != nil || *sent.MD5OfMessageBody != "5d41402abc4b2a76b9719d911017c592" {
			return fmt.Errorf("send: %v", err)
		}
		all := []types.QueueAttributeName{types.QueueAttributeNameAll}
		first, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url, AttributeNames: all})
		if err != nil || len(first.Messages) != 1 || first.Messages[0].Attributes["ApproximateReceiveCount"] != "1" {
			return fmt.Errorf("first receive: %v", err)
		}
		hidden, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url})
		if err != nil || len(hidden.Messages) != 0 {
			return fmt.Errorf("in flight, yet received: %v", err)
		}
		if err := advance("30s"); err != nil {
			return err
		}
		second, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url, AttributeNames: all})
		if err != nil || len(second.Messages) != 1 || *second.Messages[0].MessageId != *first.Messages[0].MessageId ||
			second.Messages[0].Attributes["ApproximateReceiveCount"] != "2" ||
			*second.Messages[0].ReceiptHandle == *first.Messages[0].ReceiptHandle {
			return fmt.Errorf("second receive: %v", err)
		}
		if _, err := client.DeleteMessage(ctx, &sqs.DeleteMessageInput{QueueUrl: &url,
			ReceiptHandle: second.Messages[0].ReceiptHandle}); err != nil {
			return err
		}
		attributes, err := client.GetQueueAttributes(ctx, &sqs.GetQueueAttributesInput{QueueUrl: &url,
			AttributeNames: all})
		if err != nil || attributes.Attributes["ApproximateNumberOfMessages"] != "0" ||
			attributes.Attributes["ApproximateNumberOfMessagesNotVisible"] != "0" {
			return fmt.Errorf("not empty: %v", err)
		}
		return nil
	})

	check("a batch in, a FIFO group out in order", func() error {
		url, err := queue("go-order.fifo", map[string]string{"FifoQueue": "true", "ContentBasedDeduplication": "true"})
		if err != nil {
			return err
		}
		entries := []types.SendMessageBatchRequestEntry{}
		for _, body := range []string{"one", "two", "three"} {
			entries = append(entries, types.SendMessageBatchRequestEntry{Id: aws.String(body),
				MessageBody: aws.String(body), MessageGroupId: aws.String("g")})
		}
		sent, err := client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &url, Entries: entries})
		if err != nil || len(sent.Successful) != 3 || len(sent.Failed) != 0 {
			return fmt.Errorf("batch: %v", err)
		}
		got, err := client.ReceiveMessage(ctx, &sqs.ReceiveMessageInput{QueueUrl: &url, MaxNumberOfMessages: 10})
		if err != nil || len(got.Messages) != 3 {
			return fmt.Errorf("receive: %v", err)
		}
		for i, body := range []string{"one", "two", "three"} {
			if *got.Messages[i].Body != body {
				return fmt.Errorf("order: %s at %d", *got.Messages[i].Body, i)
			}
		}
		return nil
	})

	check("recorded errors match AWS", func() error {
		_, err := client.GetQueueUrl(ctx, &sqs.GetQueueUrlInput{QueueName: aws.String("does-not-exist")})
		if err := expectError(err, "test_non_existent_queue", "queue-does-not-exist", nil); err != nil {
			return err
		}
		fifo, err := queue("go-errors.fifo", map[string]string{"FifoQueue": "true"})
		if err != nil {
			return err
		}
		_, err = client.SendMessage(ctx, &sqs.SendMessageInput{QueueUrl: &fifo, MessageBody: aws.String("x"),
			MessageGroupId: aws.String("g"), MessageDeduplicationId: aws.String("d"), DelaySeconds: 2})
		if err := expectError(err, "test_fifo_queue_send_message_with_delay_seconds_fails", "send_message",
			nil); err != nil {
			return err
		}
		plain, err := queue("go-errors", nil)
		if err != nil {
			return err
		}
		entries := []types.SendMessageBatchRequestEntry{}
		for i := 0; i < 20; i++ {
			entries = append(entries, types.SendMessageBatchRequestEntry{Id: aws.String(fmt.Sprint(i)),
				MessageBody: aws.String("x")})
		}
		_, err = client.SendMessageBatch(ctx, &sqs.SendMessageBatchInput{QueueUrl: &plain, Entries: entries})
		if err := expectError(err, "test_too_many_entries_in_batch_request", "test_too_many_entries_in_batch_request",
			nil); err != nil {
			return err
		}
		if _, err := client.PurgeQueue(ctx, &sqs.PurgeQueueInput{QueueUrl: &plain}); err != nil {
			return err
		}
		_, err = client.PurgeQueue(ctx, &sqs.PurgeQueueInput{QueueUrl: &plain})
		return expectError(err, "test_successive_purge_calls_fail", "purge_queue_error",
			map[string]string{"<queue-name>": "go-errors"})
	})

	if len(failures) > 0 {
		fmt.Printf("%d case(s) failed: %s\n", len(failures), strings.Join(failures, ", "))
		os.Exit(1)
	}
	fmt.Println("all cases passed (query, Go SDK v2)")
}
