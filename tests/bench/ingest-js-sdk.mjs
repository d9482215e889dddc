// ingest-js-sdk.mjs: the AWS SDK for JavaScript v3 reading every page of a Query, for
// bench-ingest.sh.  Items are kept in memory, as a list model would keep them.
//
// SPDX-License-Identifier: GPL-3.0-or-later
//
// Usage: node ingest-js-sdk.mjs ENDPOINT TABLE

import { DynamoDBClient, QueryCommand } from "@aws-sdk/client-dynamodb";

const [endpoint, table] = process.argv.slice(2);
const client = new DynamoDBClient({
  endpoint,
  region: "us-east-1",
  credentials: { accessKeyId: "bench", secretAccessKey: "bench" },
});

const items = [];
let start;
do {
  const page = await client.send(new QueryCommand({
    TableName: table,
    KeyConditionExpression: "pk = :pk",
    ExpressionAttributeValues: { ":pk": { S: "USER#42" } },
    ExclusiveStartKey: start,
  }));
  for (const item of page.Items) items.push(item);
  start = page.LastEvaluatedKey;
} while (start);

process.stderr.write(`${items.length} items\n`);
