import * as DropdownMenu from "@radix-ui/react-dropdown-menu";
import { act, fireEvent, render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { Menu } from "./Menu.tsx";

function ShareMenu() {
  return (
    <Menu label="Share" triggerClassName="share" trigger={<span>↗</span>}>
      <DropdownMenu.Item>Copy Link</DropdownMenu.Item>
    </Menu>
  );
}

const idle = () => act(() => new Promise((resolve) => setTimeout(resolve, 10)));

describe("a dropdown menu drawn before the page is idle", () => {
  it("is a plain button that looks the same, then the Radix menu once the browser is idle", async () => {
    render(<ShareMenu />);
    const plain = screen.getByRole("button", { name: "Share" });
    expect(plain.className).toBe("share");
    expect(plain.getAttribute("aria-haspopup")).toBe("menu");
    expect(plain.hasAttribute("data-state")).toBe(false);
    await idle();
    const radix = screen.getByRole("button", { name: "Share" });
    expect(radix.className).toBe("share");
    expect(radix.getAttribute("data-state")).toBe("closed");
    expect(screen.queryByRole("menuitem")).toBeNull();
  });

  it("opens when pressed before it is idle", () => {
    render(<ShareMenu />);
    fireEvent.pointerDown(screen.getByRole("button", { name: "Share" }), { button: 0 });
    expect(screen.getByRole("menuitem", { name: "Copy Link" })).toBeTruthy();
  });

  it("opens from the keyboard before it is idle, and not on other keys", () => {
    render(<ShareMenu />);
    fireEvent.keyDown(screen.getByRole("button", { name: "Share" }), { key: "Tab" });
    expect(screen.queryByRole("menuitem")).toBeNull();
    fireEvent.keyDown(screen.getByRole("button", { name: "Share" }), { key: "Enter" });
    expect(screen.getByRole("menuitem", { name: "Copy Link" })).toBeTruthy();
  });

  it("does not open on a right click", () => {
    render(<ShareMenu />);
    fireEvent.pointerDown(screen.getByRole("button", { name: "Share" }), { button: 2 });
    expect(screen.queryByRole("menuitem")).toBeNull();
  });
});
