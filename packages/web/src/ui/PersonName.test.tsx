import { render, screen } from "@testing-library/react";
import { MemoryRouter } from "react-router";
import { describe, expect, it } from "vitest";
import { PersonName } from "./PersonName.tsx";

const ADDRESS = "0x90f79bf6eb2c4f870365e785982e1f101e93b906";

function show(
  person: Parameters<typeof PersonName>[0]["person"],
  extra: { you?: string; link?: boolean } = {},
) {
  render(
    <MemoryRouter>
      <PersonName person={person} {...extra} />
    </MemoryRouter>,
  );
}

describe("PersonName", () => {
  it("shows the profile's name, linked to the profile, with the address as its tooltip", () => {
    show({ address: ADDRESS, name: "Grace Hopper", username: "grace", ens: "grace.eth" });
    const link = screen.getByRole("link", { name: "Grace Hopper" });
    expect(link.getAttribute("href")).toBe(`/profile/${ADDRESS}`);
    expect(link.getAttribute("title")).toBe(ADDRESS);
  });

  it("shows the username when the profile has no display name", () => {
    show({ address: ADDRESS, name: null, username: "grace", ens: "grace.eth" });
    expect(screen.getByRole("link", { name: "grace" })).toBeTruthy();
  });

  it("shows the ENS name when the profile has no name", () => {
    show({ address: ADDRESS, name: "", username: null, ens: "grace.eth" });
    expect(screen.getByRole("link", { name: "grace.eth" })).toBeTruthy();
  });

  it("shows the short address, first 4 and last 4, without a profile", () => {
    show({ address: ADDRESS });
    const link = screen.getByRole("link", { name: "0x90…b906" });
    expect(link.className).toContain("font-mono");
  });

  it("says 'you' for the signed-in account, and can be plain text", () => {
    show({ address: ADDRESS, name: "Grace Hopper" }, { you: ADDRESS.toUpperCase().replace("0X", "0x") });
    expect(screen.getByText("you")).toBeTruthy();
    expect(screen.queryByRole("link")).toBeNull();
  });

  it("is plain text when asked", () => {
    show({ address: ADDRESS, ens: "grace.eth" }, { link: false });
    expect(screen.getByText("grace.eth").getAttribute("title")).toBe(ADDRESS);
    expect(screen.queryByRole("link")).toBeNull();
  });
});
