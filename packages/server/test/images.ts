import sharp from "sharp";

/** A small JPEG carrying a camera model and a GPS position in its EXIF: what uploads must not keep. */
export const jpegWithGps = () =>
  sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 80, b: 40 } } })
    .jpeg({ quality: 90 })
    .withExif({
      IFD0: { Make: "CameraCo", Model: "Secret Model X", Copyright: "Easel test" },
      IFD3: {
        GPSLatitudeRef: "N",
        GPSLatitude: "51/1 30/1 0/1",
        GPSLongitudeRef: "W",
        GPSLongitude: "0/1 7/1 0/1",
      },
    })
    .toBuffer();

/** The compressed scan of a JPEG (from its start-of-scan marker): what lossless stripping leaves untouched. */
export const jpegScan = (bytes: Buffer) => bytes.subarray(bytes.indexOf(Buffer.from([0xff, 0xda])));
