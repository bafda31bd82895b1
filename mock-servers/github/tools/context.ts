import { ToolError } from "../../kit/errors.ts";
import { githubTool, type PageArgs } from "../define.ts";
import { findOrg, requireAccount, requireOrg } from "../lookup.ts";
import { paginate, sortByKey } from "../paging.ts";
import { arrayOf, int, nullable, object, str } from "../schemas.ts";
import { compareRange, parseSearchQuery, qualifiersHold, sortDirection, termScore } from "../search-query.ts";
import type { Account, GithubState } from "../state.ts";
import { WEB } from "../views.ts";

function publicRepoCount(state: GithubState, login: string): number {
  return Object.values(state.repos).filter((repo) => repo.owner === login && !repo.private).length;
}

export const getMe = githubTool<Record<string, never>>({
  name: "get_me",
  title: "Get my user profile",
  description:
    "Get details of the authenticated GitHub user. Use this when a request is about the user's own profile for GitHub. Or when information is missing to build other tool calls.",
  outputSchema: object(
    {
      login: str,
      id: int,
      profile_url: str,
      avatar_url: str,
      details: object(
        {
          name: str,
          company: nullable(str),
          blog: str,
          location: nullable(str),
          email: nullable(str),
          bio: nullable(str),
          twitter_username: nullable(str),
          public_repos: int,
          followers: int,
          following: int,
          created_at: str,
        },
        ["name"],
      ),
    },
    ["login", "id", "details"],
  ),
  handler: (_args, { state }) => {
    const me = requireAccount(state, state.viewer);
    return {
      login: me.login,
      id: me.id,
      profile_url: `${WEB}/${me.login}`,
      avatar_url: `https://avatars.githubusercontent.com/u/${me.id}?v=4`,
      details: {
        name: me.name,
        company: me.company,
        blog: me.blog,
        location: me.location,
        email: me.email,
        bio: me.bio,
        twitter_username: me.twitter_username,
        public_repos: publicRepoCount(state, me.login),
        followers: me.followers,
        following: me.following,
        created_at: me.created_at,
      },
    };
  },
});

const teamSchema = object({ name: str, slug: str, description: str }, ["name", "slug"]);

export const getTeams = githubTool<{ user?: string }>({
  name: "get_teams",
  title: "Get teams",
  description:
    "Get details of the teams the user is a member of, grouped by organization. Without a user, the authenticated user's teams are listed.",
  outputSchema: object(
    { user: str, organizations: arrayOf(object({ org: str, teams: arrayOf(teamSchema) }, ["org", "teams"])) },
    ["user", "organizations"],
  ),
  handler: ({ user }, { state }) => {
    const account = requireAccount(state, user ?? state.viewer);
    if (account.type !== "User")
      throw new ToolError("invalid_argument", `${account.login} is an organization, not a user`);
    const organizations = state.orgs
      .map((org) => ({
        org: org.login,
        teams: org.teams
          .filter((team) => team.members.includes(account.login))
          .map((team) => ({ name: team.name, slug: team.slug, description: team.description })),
      }))
      .filter((entry) => entry.teams.length > 0);
    return { user: account.login, organizations };
  },
});

export const getTeamMembers = githubTool<{ org: string; team_slug: string }>({
  name: "get_team_members",
  title: "Get team members",
  description:
    "Get member usernames of a specific team in an organization. Limited to organizations accessible with current credentials.",
  outputSchema: object({ org: str, team_slug: str, members: arrayOf(str) }, ["org", "team_slug", "members"]),
  handler: ({ org, team_slug }, { state }) => {
    const found = requireOrg(state, org);
    const team = found.teams.find((candidate) => candidate.slug === team_slug.toLowerCase());
    if (!team) {
      const known = found.teams.map((candidate) => candidate.slug).join(", ");
      throw new ToolError(
        "not_found",
        `Not Found: team ${team_slug} does not exist in ${found.login} (teams: ${known})`,
      );
    }
    return { org: found.login, team_slug: team.slug, members: [...team.members] };
  },
});

const USER_QUALIFIERS = ["type", "location", "in", "followers", "repos", "created", "org"] as const;
type UserSort = "followers" | "repositories" | "joined";

function userSearchText(account: Account, fields: string[]): string {
  const all = { login: account.login, name: account.name, email: account.email ?? "", bio: account.bio ?? "" };
  const chosen = fields.length > 0 ? fields : ["login", "name", "email", "bio"];
  return chosen.map((field) => all[field as keyof typeof all] ?? "").join(" ");
}

export const searchUsers = githubTool<{ query: string; sort?: UserSort; order?: "asc" | "desc" } & PageArgs>({
  name: "search_users",
  title: "Search users",
  description:
    "Find GitHub users by username, real name, or other profile information. Supports GitHub user search syntax, e.g. 'location:Berlin', 'type:user', 'followers:>100', 'in:login'.",
  outputSchema: object(
    {
      total_count: int,
      incomplete_results: { type: "boolean" },
      items: arrayOf(
        object(
          { login: str, id: int, type: str, name: str, location: nullable(str), company: nullable(str), html_url: str },
          ["login", "id"],
        ),
      ),
    },
    ["total_count", "items"],
  ),
  handler: ({ query, sort, order, page, perPage }, { state }) => {
    const parsed = parseSearchQuery(query, USER_QUALIFIERS);
    const within = parsed.qualifiers.filter((q) => q.key === "in").flatMap((q) => q.value.split(","));
    const matches = state.accounts.filter(
      (account) =>
        parsed.terms.every((term) => userSearchText(account, within).toLowerCase().includes(term)) &&
        qualifiersHold(
          parsed,
          "type",
          (value) => account.type.toLowerCase() === value.toLowerCase().replace("org", "organization"),
        ) &&
        qualifiersHold(parsed, "location", (value) =>
          (account.location ?? "").toLowerCase().includes(value.toLowerCase()),
        ) &&
        qualifiersHold(parsed, "followers", (value) => compareRange(account.followers, value)) &&
        qualifiersHold(parsed, "repos", (value) => compareRange(publicRepoCount(state, account.login), value)) &&
        qualifiersHold(parsed, "created", (value) => compareRange(account.created_at, value)) &&
        qualifiersHold(
          parsed,
          "org",
          (value) => findOrg(state, value)?.members.some((m) => m.login === account.login) ?? false,
        ),
    );
    const key = (account: Account): number | string =>
      sort === "followers"
        ? account.followers
        : sort === "repositories"
          ? publicRepoCount(state, account.login)
          : sort === "joined"
            ? account.created_at
            : termScore(userSearchText(account, within), parsed.terms);
    const sorted = sortByKey(matches, key, sort ? sortDirection(order) : -1);
    const items = paginate(sorted, page, perPage).map((account) => ({
      login: account.login,
      id: account.id,
      type: account.type,
      name: account.name,
      location: account.location,
      company: account.company,
      html_url: `${WEB}/${account.login}`,
    }));
    return { total_count: matches.length, incomplete_results: false, items };
  },
});
