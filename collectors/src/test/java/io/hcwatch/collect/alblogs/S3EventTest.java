package io.hcwatch.collect.alblogs;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class S3EventTest {

    @Test
    void anObjectCreatedRecordNamesTheObjectWithItsKeyDecoded() throws Exception {
        S3Event e = S3Event.parse("{\"Records\":[{\"eventVersion\":\"2.1\",\"eventSource\":\"aws:s3\",\"eventTime\":"
                + "\"2026-12-02T07:35:12.345Z\",\"eventName\":\"ObjectCreated:Put\",\"s3\":{\"bucket\":{\"name\":\"logs\"},"
                + "\"object\":{\"key\":\"my+logs/AWSLogs/a%3Db.log.gz\",\"size\":1024,\"eTag\":\"d41d8cd98f00b204e9800998ecf8427e\","
                + "\"versionId\":\"096fKKXTRTtl3on89fVO.nfljtsv6qko\"}}}]}");

        assertThat(e.kind()).isEqualTo(S3Event.Kind.OBJECTS);
        S3Event.ObjectRef ref = e.created().get(0);
        assertThat(ref.key()).isEqualTo("my logs/AWSLogs/a=b.log.gz");
        assertThat(ref.uri()).isEqualTo("s3://logs/my logs/AWSLogs/a=b.log.gz");
        assertThat(ref.id()).isEqualTo("logs/my logs/AWSLogs/a=b.log.gz@v:096fKKXTRTtl3on89fVO.nfljtsv6qko");
        assertThat(ref.size()).isEqualTo(1024);
    }

    @Test
    void withoutAVersionTheEtagTellsVersionsApart() throws Exception {
        S3Event e = S3Event.parse("{\"Records\":[{\"eventSource\":\"aws:s3\",\"eventName\":\"ObjectCreated:CompleteMultipartUpload\","
                + "\"s3\":{\"bucket\":{\"name\":\"logs\"},\"object\":{\"key\":\"k\",\"eTag\":\"abc-2\"}}}]}");

        assertThat(e.created().get(0).id()).isEqualTo("logs/k@e:abc-2");
    }

    @Test
    void testEventsAndOtherEventsAreToldApart() throws Exception {
        assertThat(S3Event.parse("{\"Service\":\"Amazon S3\",\"Event\":\"s3:TestEvent\",\"Time\":\"2026-12-02T07:30:00.000Z\","
                + "\"Bucket\":\"logs\"}").kind()).isEqualTo(S3Event.Kind.TEST);
        S3Event removed = S3Event.parse("{\"Records\":[{\"eventSource\":\"aws:s3\",\"eventName\":\"ObjectRemoved:Delete\","
                + "\"s3\":{\"bucket\":{\"name\":\"logs\"},\"object\":{\"key\":\"k\"}}}]}");
        assertThat(removed.kind()).isEqualTo(S3Event.Kind.OTHER);
        assertThat(removed.ignored()).isEqualTo(1);
    }

    @Test
    void anSnsEnvelopeIsOpened() throws Exception {
        String inner = "{\\\"Records\\\":[{\\\"eventSource\\\":\\\"aws:s3\\\",\\\"eventName\\\":\\\"ObjectCreated:Put\\\","
                + "\\\"s3\\\":{\\\"bucket\\\":{\\\"name\\\":\\\"logs\\\"},\\\"object\\\":{\\\"key\\\":\\\"k\\\",\\\"eTag\\\":\\\"e\\\"}}}]}";
        S3Event e = S3Event.parse("{\"Type\":\"Notification\",\"MessageId\":\"m\",\"TopicArn\":\"arn:aws:sns:us-east-1:1:t\","
                + "\"Message\":\"" + inner + "\"}");

        assertThat(e.created()).singleElement().extracting(S3Event.ObjectRef::key).isEqualTo("k");
    }

    @Test
    void aBodyThatIsNoEventIsRefusedSayingWhy() {
        assertThatThrownBy(() -> S3Event.parse("hello")).isInstanceOf(S3Event.NotAnEvent.class).hasMessageContaining("not JSON");
        assertThatThrownBy(() -> S3Event.parse("{\"foo\":1}")).isInstanceOf(S3Event.NotAnEvent.class)
                .hasMessageContaining("no Records");
        assertThatThrownBy(() -> S3Event.parse("{\"Records\":[{\"eventSource\":\"aws:s3\",\"eventName\":\"ObjectCreated:Put\","
                + "\"s3\":{}}]}")).isInstanceOf(S3Event.NotAnEvent.class).hasMessageContaining("s3.object.key");
    }
}
