/** BFCL's TwitterAPI (posting_api): tweets keyed by int id, comments, retweets, a following list. */

import { Environment, type Method, method } from "../environment.ts";
import {
  asDict,
  asList,
  asStr,
  contains,
  dget,
  dict,
  eq,
  getItem,
  key,
  type PyDict,
  PyException,
  rec,
  str,
  toInt,
  truthy,
  type V,
} from "../py.ts";

// Python evaluates a default once: every post_tweet without tags shares this one list (and a
// mention() on such a tweet extends it for all of them), in every instance.
const SHARED_TAGS: V[] = [];
const SHARED_MENTIONS: V[] = [];

const notAuthenticated = (doing: string): PyDict =>
  rec({ error: `User not authenticated. Please authenticate before ${doing}.` });

export class TwitterAPI extends Environment {
  readonly className = "TwitterAPI";
  username: V = "john";
  password: V = "john123";
  authenticated: V = false;
  tweets: PyDict = dict();
  comments: PyDict = dict();
  retweets: PyDict = dict();
  following_list: V[] = ["alice", "bob"];
  tweet_counter: V = 0;

  loadScenario(config: PyDict): void {
    this.username = dget(config, "username", "john");
    this.password = dget(config, "password", "john123");
    this.authenticated = dget(config, "authenticated", false);
    const tweets = asDict(dget(config, "tweets", dict()));
    this.tweets = dict([...tweets].map(([k, v]) => [toInt(k), v] as const));
    this.comments = asDict(dget(config, "comments", dict()));
    this.retweets = asDict(dget(config, "retweets", dict()));
    this.following_list = asList(dget(config, "following_list", ["alice", "bob"]));
    this.tweet_counter = dget(config, "tweet_counter", 0);
  }

  publicState(): ReadonlyArray<readonly [string, V]> {
    return this.attributes([
      "username",
      "password",
      "authenticated",
      "tweets",
      "comments",
      "retweets",
      "following_list",
      "tweet_counter",
    ]);
  }

  private tweetsBy(username: V): V[] {
    return [...this.tweets.values()].filter((tweet) => getItem(tweet, "username") === username);
  }

  protected defineMethods(): Record<string, Method> {
    const notFound = (tweetId: V): PyDict => rec({ error: `Tweet with ID ${str(tweetId)} not found.` });
    return {
      authenticate_twitter: method(["username", "password"], ([username, password]) => {
        if (username === this.username && password === this.password) {
          this.authenticated = true;
          return rec({ authentication_status: true });
        }
        return rec({ authentication_status: false });
      }),
      posting_get_login_status: method([], () => rec({ login_status: truthy(this.authenticated) })),
      post_tweet: method(
        ["content", ["tags", SHARED_TAGS], ["mentions", SHARED_MENTIONS]],
        ([content, tags, mentions]) => {
          if (!truthy(this.authenticated)) return notAuthenticated("posting");
          const tweet = rec({
            id: this.tweet_counter,
            username: this.username,
            content: content!,
            tags: tags!,
            mentions: mentions!,
          });
          this.tweets.set(key(this.tweet_counter), tweet);
          this.tweet_counter = (this.tweet_counter as number) + 1;
          return tweet;
        },
      ),
      retweet: method(["tweet_id"], ([tweetId]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("retweeting");
        if (!contains(this.tweets, tweetId!)) return notFound(tweetId!);
        const user = key(this.username);
        if (!this.retweets.has(user)) this.retweets.set(user, []);
        const mine = asList(this.retweets.get(user));
        if (contains(mine, tweetId!)) return rec({ retweet_status: "Already retweeted" });
        mine.push(tweetId!);
        return rec({ retweet_status: "Successfully retweeted" });
      }),
      comment: method(["tweet_id", "comment_content"], ([tweetId, content]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("commenting");
        if (!contains(this.tweets, tweetId!)) return notFound(tweetId!);
        const k = key(tweetId!);
        if (!this.comments.has(k)) this.comments.set(k, []);
        asList(this.comments.get(k)).push(rec({ username: this.username, content: content! }));
        return rec({ comment_status: "Comment added successfully" });
      }),
      mention: method(["tweet_id", "mentioned_usernames"], ([tweetId, usernames]) => {
        if (!contains(this.tweets, tweetId!)) return notFound(tweetId!);
        const mentions = getItem(getItem(this.tweets, tweetId!), "mentions");
        if (!Array.isArray(mentions)) throw new PyException("AttributeError", "object has no attribute 'extend'");
        mentions.push(...asList(usernames));
        return rec({ mention_status: "Users mentioned successfully" });
      }),
      follow_user: method(["username_to_follow"], ([username]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("following");
        if (contains(this.following_list, username!)) return rec({ follow_status: false });
        this.following_list.push(username!);
        return rec({ follow_status: true });
      }),
      list_all_following: method([], () => {
        if (!truthy(this.authenticated)) return notAuthenticated("listing following");
        return rec({ following_list: this.following_list });
      }),
      unfollow_user: method(["username_to_unfollow"], ([username]) => {
        if (!truthy(this.authenticated)) return notAuthenticated("unfollowing");
        if (!contains(this.following_list, username!)) return rec({ unfollow_status: false });
        this.following_list.splice(
          this.following_list.findIndex((x) => eq(x, username!)),
          1,
        );
        return rec({ unfollow_status: true });
      }),
      get_tweet: method(["tweet_id"], ([tweetId]) =>
        contains(this.tweets, tweetId!) ? getItem(this.tweets, tweetId!) : notFound(tweetId!),
      ),
      get_user_tweets: method(["username"], ([username]) => this.tweetsBy(username!)),
      search_tweets: method(["keyword"], ([keyword]) => {
        const needle = asStr(keyword).toLowerCase();
        return [...this.tweets.values()].filter(
          (tweet) =>
            asStr(getItem(tweet, "content")).toLowerCase().includes(needle) ||
            asList(getItem(tweet, "tags")).some((tag) => asStr(tag).toLowerCase() === needle),
        );
      }),
      get_tweet_comments: method(["tweet_id"], ([tweetId]) => {
        if (!contains(this.tweets, tweetId!)) return notFound(tweetId!);
        return dget(this.comments, key(tweetId!), []);
      }),
      get_user_stats: method(["username"], ([username]) =>
        rec({
          tweet_count: this.tweetsBy(username!).length,
          following_count: username === this.username ? this.following_list.length : 0,
          retweet_count: asList(dget(this.retweets, key(username!), [])).length,
        }),
      ),
    };
  }
}
