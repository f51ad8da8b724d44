import { QueryClient } from "@tanstack/react-query";
import { act, render, screen } from "@testing-library/react";
import { toast } from "sonner";
import { describe, expect, it } from "vitest";
import { LOCAL_CONFIG } from "../test/harness.tsx";
import { Providers, TOAST_MOBILE_OFFSET, TOAST_OFFSET } from "./Providers.tsx";

describe("toasts", () => {
  it("stand top-right, below the header (64 px), so they never cover the avatar or the notification badge", async () => {
    render(
      <Providers config={LOCAL_CONFIG} queryClient={new QueryClient()}>
        <p>page</p>
      </Providers>,
    );
    act(() => {
      toast.success("Your NFT has been listed.");
    });
    await screen.findByText("Your NFT has been listed.");
    const toaster = document.querySelector("[data-sonner-toaster]") as HTMLElement;
    expect(toaster.dataset.yPosition).toBe("top");
    expect(toaster.dataset.xPosition).toBe("right");
    expect(toaster.style.getPropertyValue("--offset-top")).toBe("80px");
    expect(toaster.style.getPropertyValue("--mobile-offset-top")).toBe("72px");
    // The header is h-16 (64 px) with a 1 px border: both offsets start below it.
    expect(TOAST_OFFSET.top).toBeGreaterThan(65);
    expect(TOAST_MOBILE_OFFSET.top).toBeGreaterThan(65);
  });
});
